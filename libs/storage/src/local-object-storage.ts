import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  copyFile,
  mkdir,
  open,
  readFile,
  readdir,
  rename,
  rmdir,
  stat,
  unlink,
  writeFile,
  type FileHandle,
} from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type {
  ObjectBytes,
  ObjectStorage,
  ReadableObject,
  PresignGetRequest,
  PresignPutRequest,
  SignedUrl,
  StoredObject,
} from './object-storage';

/** The path under the service's base URL where local objects are served (see local-object-routes.ts). */
export const LOCAL_OBJECTS_PATH = '/objects/v1';
/** Longest validity of a signed URL, as with SigV4: 7 days. */
export const MAX_SIGNED_URL_SECONDS = 7 * 24 * 60 * 60;
/** Largest object, as a single S3 PUT: 5 GiB. */
export const MAX_OBJECT_BYTES = 5 * 1024 * 1024 * 1024;

export interface LocalObjectStorageOptions {
  /** Where the objects live; created on first write. */
  readonly directory: string;
  /** The service's public base URL; a function when it is known only once the server listens. */
  readonly baseUrl: string | (() => string);
  /** The HMAC-SHA256 key of the URLs, at least 32 bytes. */
  readonly secret: Buffer;
  /** For tests: the clock of signing and verification. */
  readonly now?: () => Date;
}

export type SignedMethod = 'GET' | 'PUT';

/** What a valid PUT URL allows: exactly this content type and byte count. */
export interface SignedUpload {
  readonly contentType: string;
  readonly contentLength: number;
}

export type SignedUrlCheck =
  | {
      readonly ok: true;
      readonly expiresAt: Date;
      /** Whole seconds until expiry (a cache lifetime). */
      readonly secondsLeft: number;
      readonly upload: SignedUpload | null;
    }
  | {
      readonly ok: false;
      readonly reason: 'expired' | 'bad_signature' | 'malformed';
      /** The query parameter (or `key`) at fault. */
      readonly field: string;
    };

/** Tries of `createTemp` while concurrent deletes keep removing the emptied directory it writes into. */
const MAX_CREATE_ATTEMPTS = 10;
/** Names of our own files start with it; no key segment may. */
const RESERVED_PREFIX = '.~';
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
const EXPIRES = /^[0-9]{1,12}$/;
const LENGTH = /^(0|[1-9][0-9]{0,15})$/;

/** Why `key` cannot name an object, or null when it can. */
export function objectKeyProblem(key: string): string | null {
  if (key.length === 0) return 'empty key';
  if (Buffer.byteLength(key) > 1024) return 'key longer than 1024 bytes';
  for (let i = 0; i < key.length; i += 1) {
    const c = key.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return 'control character in key';
    if (c === 0x5c) return 'backslash in key';
  }
  if (key.startsWith('/')) return 'absolute key';
  for (const segment of key.split('/')) {
    if (segment === '') return 'empty segment in key';
    if (segment === '.' || segment === '..') return 'dot segment in key';
    if (segment.startsWith(RESERVED_PREFIX)) return `key segment starting with ${RESERVED_PREFIX}`;
    if (Buffer.byteLength(segment) > 240) return 'key segment longer than 240 bytes';
  }
  return null;
}

function assertKey(key: string): void {
  const problem = objectKeyProblem(key);
  if (problem) throw new RangeError(`invalid object key: ${problem}`);
}

/** A header value we can store and send back: printable ASCII, not empty. */
function assertContentType(contentType: string): void {
  if (!/^[\x21-\x7e][\x20-\x7e]*$/.test(contentType)) throw new RangeError('invalid content type');
}

function signature(
  secret: Buffer,
  method: SignedMethod,
  key: string,
  expires: number,
  upload?: SignedUpload,
) {
  const fields = upload ? [upload.contentType, upload.contentLength] : [];
  // JSON keeps the fields apart whatever characters they hold.
  const canonical = JSON.stringify(['v1', method, key, expires, ...fields]);
  return createHmac('sha256', secret).update(canonical).digest('base64url');
}

/**
 * Checks a signed URL's query for `method` on `key` at `now`: a pure function of its arguments.
 * Malformed parameters are reported first, then a wrong signature, then expiry.
 */
export function verify(
  secret: Buffer,
  method: SignedMethod,
  key: string,
  query: Readonly<Record<string, unknown>>,
  now: Date,
): SignedUrlCheck {
  const malformed = (field: string): SignedUrlCheck => ({ ok: false, reason: 'malformed', field });
  const param = (name: string): string | null => {
    const value = query[name];
    return typeof value === 'string' ? value : null;
  };
  if (objectKeyProblem(key)) return malformed('key');
  const expiresText = param('X-Expires');
  if (expiresText === null || !EXPIRES.test(expiresText)) return malformed('X-Expires');
  const given = param('X-Signature');
  if (given === null || !SIGNATURE.test(given)) return malformed('X-Signature');
  let upload: SignedUpload | null = null;
  if (method === 'PUT') {
    const contentType = param('X-Content-Type');
    if (contentType === null || contentType === '') return malformed('X-Content-Type');
    const lengthText = param('X-Content-Length');
    if (lengthText === null || !LENGTH.test(lengthText) || Number(lengthText) > MAX_OBJECT_BYTES) {
      return malformed('X-Content-Length');
    }
    upload = { contentType, contentLength: Number(lengthText) };
  }
  const expires = Number(expiresText);
  const expected = signature(secret, method, key, expires, upload ?? undefined);
  if (!timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
    return { ok: false, reason: 'bad_signature', field: 'X-Signature' };
  }
  const left = expires * 1000 - now.getTime();
  if (left <= 0) return { ok: false, reason: 'expired', field: 'X-Expires' };
  return { ok: true, expiresAt: new Date(expires * 1000), secondsLeft: Math.floor(left / 1000), upload };
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/**
 * A directory on the path was removed by a concurrent delete that emptied it: ENOENT, or ENOTDIR from a
 * recursive mkdir that found a parent and then lost it. A key that is a prefix of an object's key also gives
 * ENOTDIR: the bounded retries then fail with it.
 */
function isRemovedOnTheWay(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Ignores "not there" (the object, or a directory on its path, is missing). */
function ignoreMissing(error: unknown): undefined {
  const code = errorCode(error);
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
  throw error;
}

/**
 * Object storage in a local directory (embedded mode), served by the service itself through
 * `installLocalObjectRoutes` with HMAC-signed, expiring URLs. Key `a/b.png` is the file `<directory>/a/b.png`;
 * its content type is in the sidecar `<directory>/a/.~b.png.meta.json`. Every write goes to a temporary file in
 * the target's directory and is renamed into place, so a reader sees the old object or the new one, never part
 * of one. A key cannot be both an object and a prefix of another key (`a` and `a/b`): the filesystem refuses.
 */
export class LocalObjectStorage implements ObjectStorage {
  private readonly root: string;
  private readonly now: () => Date;

  constructor(private readonly options: LocalObjectStorageOptions) {
    if (options.secret.length < 32) throw new RangeError('the URL signing secret needs at least 32 bytes');
    this.root = resolve(options.directory);
    this.now = options.now ?? (() => new Date());
  }

  async presignPut(request: PresignPutRequest): Promise<SignedUrl> {
    assertContentType(request.contentType);
    const { contentLength } = request;
    if (!Number.isSafeInteger(contentLength) || contentLength < 0 || contentLength > MAX_OBJECT_BYTES) {
      throw new RangeError(`contentLength must be an integer from 0 to ${MAX_OBJECT_BYTES}`);
    }
    const upload = { contentType: request.contentType, contentLength };
    const signed = this.sign('PUT', request.key, request.expiresInSeconds, upload);
    return {
      ...signed,
      headers: { 'content-type': request.contentType, 'content-length': String(contentLength) },
    };
  }

  async presignGet(request: PresignGetRequest): Promise<SignedUrl> {
    return { ...this.sign('GET', request.key, request.expiresInSeconds), headers: {} };
  }

  /** Checks a request for `key` against this storage's secret and clock. */
  verify(method: SignedMethod, key: string, query: Readonly<Record<string, unknown>>): SignedUrlCheck {
    return verify(this.options.secret, method, key, query, this.now());
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertContentType(contentType);
    await this.commit(key, contentType, async (temp) => {
      await temp.handle.writeFile(body);
      return true;
    });
  }

  /**
   * Streams `source` into `key` while counting. Stores nothing and returns false unless exactly
   * `contentLength` bytes arrive (bytes past it are read and dropped, never written).
   */
  async putStream(
    key: string,
    source: Readable,
    contentType: string,
    contentLength: number,
  ): Promise<boolean> {
    assertContentType(contentType);
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        done(null, received > contentLength ? undefined : chunk);
      },
    });
    return this.commit(key, contentType, async (temp) => {
      await pipeline(source, counter, temp.handle.createWriteStream());
      return received === contentLength;
    });
  }

  async head(key: string): Promise<StoredObject | null> {
    const path = this.pathOf(key);
    const stats = await stat(path).catch(ignoreMissing);
    if (!stats?.isFile()) return null;
    return { key, bytes: stats.size, contentType: await this.contentTypeOf(path) };
  }

  /** The object's bytes as a stream (of the file as it was when opened), or null when there is none. */
  async read(key: string): Promise<ReadableObject | null> {
    const path = this.pathOf(key);
    const handle = await open(path, 'r').catch(ignoreMissing);
    if (!handle) return null;
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) {
        await handle.close();
        return null;
      }
      const contentType = await this.contentTypeOf(path);
      return { key, bytes: stats.size, contentType, stream: handle.createReadStream() };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * The file's bytes read straight into one buffer of its size (no chunks to allocate and join again). The
   * file opened is the object as it was then: a write puts a new file in its place, never into it.
   */
  async readBytes(key: string, maxBytes: number): Promise<ObjectBytes | null> {
    const path = this.pathOf(key);
    const handle = await open(path, 'r').catch(ignoreMissing);
    if (!handle) return null;
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return null;
      const contentType = await this.contentTypeOf(path);
      if (stats.size > maxBytes) return { key, bytes: stats.size, contentType, body: null };
      const body = Buffer.allocUnsafe(stats.size);
      let filled = 0;
      while (filled < body.length) {
        const { bytesRead } = await handle.read(body, filled, body.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return { key, bytes: stats.size, contentType, body: body.subarray(0, filled) };
    } finally {
      await handle.close();
    }
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    assertKey(toKey);
    const source = await this.head(fromKey);
    if (!source) throw new Error(`no object to copy at ${JSON.stringify(fromKey)}`);
    const from = this.pathOf(fromKey);
    await this.commit(toKey, source.contentType, async (temp) => {
      await copyFile(from, temp.path);
      return true;
    });
  }

  /**
   * Renames the object into place (its sidecar follows; an upload's content type is fixed by its ticket, so a
   * write to `fromKey` racing the move can only bring the same one), then removes emptied directories.
   */
  async move(fromKey: string, toKey: string): Promise<boolean> {
    const from = this.pathOf(fromKey);
    const to = this.pathOf(toKey);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await mkdir(dirname(to), { recursive: true });
        await rename(from, to);
        break;
      } catch (error) {
        // Absent: nothing to move; or the target's directory was removed on the way by a concurrent delete
        // that emptied it (see createTemp): make it again.
        if (!isRemovedOnTheWay(error)) throw error;
        if (!(await stat(from).catch(ignoreMissing))?.isFile()) return false;
        if (attempt === MAX_CREATE_ATTEMPTS) throw error;
      }
    }
    await rename(this.sidecarOf(from), this.sidecarOf(to)).catch(ignoreMissing);
    await this.removeEmptyDirectories(dirname(from));
    return true;
  }

  /** Walks the directory of `prefix` (the service's own files, sidecars and temporaries, are not objects). */
  async listOlder(prefix: string, before: Date, limit: number): Promise<string[]> {
    if (!prefix.endsWith('/')) throw new RangeError('a prefix ends with "/"');
    const keys: string[] = [];
    const walk = async (dir: string, keyPrefix: string): Promise<void> => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(ignoreMissing);
      for (const entry of entries ?? []) {
        if (keys.length === limit) return;
        if (entry.name.startsWith(RESERVED_PREFIX)) continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path, `${keyPrefix}${entry.name}/`);
        else if (entry.isFile()) {
          const stats = await stat(path).catch(ignoreMissing);
          if (stats && stats.mtime < before) keys.push(`${keyPrefix}${entry.name}`);
        }
      }
    };
    await walk(this.pathOf(prefix.slice(0, -1)), prefix);
    return keys;
  }

  /** Deletes the object if there is one (like S3, deleting nothing succeeds), then empty directories. */
  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await unlink(path).catch(ignoreMissing);
    await unlink(this.sidecarOf(path)).catch(ignoreMissing);
    await this.removeEmptyDirectories(dirname(path));
  }

  /** Removes `dir` and its parents inside the root while they are empty. */
  private async removeEmptyDirectories(start: string): Promise<void> {
    for (let dir = start; dir.startsWith(this.root + sep); dir = dirname(dir)) {
      // A write that is about to use the directory retries (see createTemp).
      if (
        (await rmdir(dir).then(
          () => true,
          () => false,
        )) === false
      )
        break;
    }
  }

  private sign(method: SignedMethod, key: string, expiresInSeconds: number, upload?: SignedUpload) {
    assertKey(key);
    if (
      !Number.isInteger(expiresInSeconds) ||
      expiresInSeconds < 1 ||
      expiresInSeconds > MAX_SIGNED_URL_SECONDS
    ) {
      throw new RangeError(`expiresInSeconds must be an integer from 1 to ${MAX_SIGNED_URL_SECONDS}`);
    }
    const expires = Math.floor(this.now().getTime() / 1000) + expiresInSeconds;
    const query = new URLSearchParams({ 'X-Expires': String(expires) });
    if (upload) {
      query.set('X-Content-Type', upload.contentType);
      query.set('X-Content-Length', String(upload.contentLength));
    }
    query.set('X-Signature', signature(this.options.secret, method, key, expires, upload));
    const base = typeof this.options.baseUrl === 'string' ? this.options.baseUrl : this.options.baseUrl();
    const path = key.split('/').map(encodeURIComponent).join('/');
    return {
      url: `${base.replace(/\/+$/, '')}${LOCAL_OBJECTS_PATH}/${path}?${query.toString()}`,
      expiresAt: new Date(expires * 1000),
    };
  }

  private pathOf(key: string): string {
    assertKey(key);
    const path = join(this.root, ...key.split('/'));
    if (!path.startsWith(this.root + sep)) throw new RangeError('invalid object key: outside the directory');
    return path;
  }

  private sidecarOf(path: string): string {
    return join(dirname(path), `${RESERVED_PREFIX}${basename(path)}.meta.json`);
  }

  private async contentTypeOf(path: string): Promise<string | undefined> {
    const text = await readFile(this.sidecarOf(path), 'utf8').catch(ignoreMissing);
    if (text === undefined) return undefined;
    const meta = JSON.parse(text) as { contentType?: unknown };
    return typeof meta.contentType === 'string' ? meta.contentType : undefined;
  }

  /**
   * A new file in `dir`. Retried when a concurrent `delete` removed an emptied directory on the way: between
   * mkdir and open, or inside mkdir itself (which makes the parents one by one, and fails with ENOENT, or
   * with ENOTDIR, when a parent it has just made or found is removed before it makes the next one).
   */
  private async createTemp(dir: string): Promise<{ path: string; handle: FileHandle }> {
    for (let attempt = 1; ; attempt += 1) {
      const path = join(dir, `${RESERVED_PREFIX}tmp-${randomBytes(16).toString('hex')}`);
      try {
        await mkdir(dir, { recursive: true });
        return { path, handle: await open(path, 'wx') };
      } catch (error) {
        if (!isRemovedOnTheWay(error) || attempt === MAX_CREATE_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * Fills a temporary file; when `fill` says the content is complete, renames the sidecar, then the object,
   * into place. Temporary files never outlive the call.
   */
  private async commit(
    key: string,
    contentType: string | undefined,
    fill: (temp: { path: string; handle: FileHandle }) => Promise<boolean>,
  ): Promise<boolean> {
    const path = this.pathOf(key);
    const temp = await this.createTemp(dirname(path));
    const metaTemp = `${temp.path}.meta.json`;
    let committed = false;
    try {
      let complete: boolean;
      try {
        complete = await fill(temp);
      } finally {
        await temp.handle.close();
      }
      if (!complete) return false;
      await writeFile(metaTemp, JSON.stringify({ contentType }), { flag: 'wx' });
      await rename(metaTemp, this.sidecarOf(path));
      await rename(temp.path, path);
      committed = true;
      return true;
    } finally {
      if (!committed) {
        await unlink(temp.path).catch(ignoreMissing);
        await unlink(metaTemp).catch(ignoreMissing);
      }
    }
  }
}
