import { createLogger } from '@gen/core';
import { MemoryRateLimitStore, installEdge, routeFamily } from '@gen/edge';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installLocalObjectRoutes } from './local-object-routes';
import { LocalObjectStorage, MAX_SIGNED_URL_SECONDS, verify } from './local-object-storage';

const secret = randomBytes(32);
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(1024)]);
const envelope = (code: number) => ({ code, msg: expect.any(String), request_id: expect.any(String) });

describe('LocalObjectStorage served by installLocalObjectRoutes', () => {
  let directory: string;
  let server: FastifyInstance;
  let base: string;
  let storage: LocalObjectStorage;

  /** Every file under the directory (objects, sidecars and anything left behind). */
  const files = async (): Promise<string[]> =>
    (await readdir(directory, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1))
      .sort();

  const upload = (url: string, body: Buffer, contentType: string) =>
    fetch(url, { method: 'PUT', body, headers: { 'content-type': contentType } });

  const ticketFor = (key: string, body: Buffer = png, expiresInSeconds = 300) =>
    storage.presignPut({ key, contentType: 'image/png', contentLength: body.length, expiresInSeconds });

  /** Sends a request over a plain socket, so that the body may differ from what the headers say. */
  const rawRequest = (
    url: string,
    method: string,
    headers: Record<string, string>,
    write: (socket: ReturnType<typeof connect>) => Promise<void>,
  ): Promise<string> => {
    const target = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(target.port), target.hostname, () => {
        const head = Object.entries({ host: target.host, connection: 'close', ...headers })
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('');
        socket.write(`${method} ${target.pathname}${target.search} HTTP/1.1\r\n${head}\r\n`);
        write(socket).catch(reject);
      });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', reject);
    });
  };

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'local-objects-'));
    const logger = createLogger('silent');
    // The app's JSON body limit (BODY_LIMIT_BYTES) does not cap uploads: their signed length does.
    server = Fastify({ loggerInstance: logger as FastifyBaseLogger, bodyLimit: 1024 * 1024 });
    // The real edge: object URLs are in the `system` family, so they pass without a credential.
    installEdge(server, {
      apiKeys: { authenticate: async () => null, peek: () => undefined },
      consoleSessions: { verify: async () => null },
      adminTokens: { verify: async () => false },
      rateLimits: new MemoryRateLimitStore(),
      perKeyPolicy: { burst: 10, refillPerMinute: 60 },
      routeLimits: {
        adminPerAddress: { burst: 10, refillPerMinute: 60 },
        adminFailuresPerAddress: { burst: 10, refillPerMinute: 60 },
        consolePerAddress: { burst: 10, refillPerMinute: 60 },
        consoleWritesPerSession: { burst: 10, refillPerMinute: 60 },
      },
      logger,
      isDraining: () => false,
    });
    server.post('/json', async (request) => ({ echoed: request.body }));
    storage = new LocalObjectStorage({ directory, baseUrl: () => base, secret });
    installLocalObjectRoutes(server, storage);
    base = await server.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await rm(directory, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await rm(directory, { recursive: true, force: true });
    await mkdir(directory);
  });

  it('takes a presigned upload of the declared size and type, then serves it by presigned GET and HEAD', async () => {
    const ticket = await ticketFor('tmp/ok.png');
    expect(ticket.headers).toEqual({ 'content-type': 'image/png', 'content-length': String(png.length) });
    expect(ticket.url).toMatch(
      new RegExp(
        `^${base}/objects/v1/tmp/ok\\.png\\?X-Expires=\\d+&X-Content-Type=image%2Fpng&X-Content-Length=${png.length}&X-Signature=[A-Za-z0-9_-]{43}$`,
      ),
    );
    const put = await upload(ticket.url, png, 'image/png');
    expect(put.status).toBe(200);
    expect(await put.text()).toBe('');
    expect(await storage.head('tmp/ok.png')).toEqual({
      key: 'tmp/ok.png',
      bytes: png.length,
      contentType: 'image/png',
    });

    const download = await storage.presignGet({ key: 'tmp/ok.png', expiresInSeconds: 300 });
    expect(download.headers).toEqual({});
    expect(download.expiresAt.getTime()).toBeGreaterThan(Date.now() + 298_000);
    const response = await fetch(download.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-length')).toBe(String(png.length));
    expect(response.headers.get('cache-control')).toMatch(/^private, max-age=(29\d|300)$/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);

    const head = await fetch(download.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(png.length));
    expect(head.headers.get('content-type')).toBe('image/png');
    expect(await files()).toEqual(['tmp/.~ok.png.meta.json', 'tmp/ok.png']);
  });

  it('refuses another content type, Content-Length or byte count with 403 before reading, and stores nothing', async () => {
    const ticket = await ticketFor('tmp/size.png');
    for (const response of [
      await upload(ticket.url, png.subarray(1), 'image/png'),
      await upload(ticket.url, Buffer.concat([png, Buffer.from([0])]), 'image/png'),
      await upload(ticket.url, png, 'image/jpeg'),
      await upload(ticket.url, png, 'image/png; charset=utf-8'),
      // A streamed body is sent chunked, without Content-Length.
      await fetch(ticket.url, {
        method: 'PUT',
        body: new Blob([png]).stream(),
        headers: { 'content-type': 'image/png' },
        duplex: 'half',
      } as RequestInit),
    ]) {
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual(envelope(403));
    }
    expect(await storage.head('tmp/size.png')).toBeNull();
    expect(await files()).toEqual([]);
  });

  it('refuses with 400 a body shorter or longer than its matching Content-Length, and stores nothing', async () => {
    const ticket = await ticketFor('tmp/liar.png');
    const path = ticket.url.slice(base.length);
    const headers = { 'content-type': 'image/png', 'content-length': String(png.length) };
    // Node's HTTP parser frames a body by its Content-Length, so only an in-process request can lie.
    for (const payload of [png.subarray(10), Buffer.concat([png, randomBytes(4096)])]) {
      const response = await server.inject({ method: 'PUT', url: path, headers, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(envelope(400));
    }
    expect(await files()).toEqual([]);

    // Over a socket: the client ends its side before the declared length. Node answers 400 itself; the
    // route's write, which may start only afterwards, sees the request end early and removes its temporary file.
    const putStream = jest.spyOn(storage, 'putStream');
    const answer = await rawRequest(ticket.url, 'PUT', headers, async (socket) => {
      socket.end(png.subarray(0, 100));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    for (let i = 0; i < 200 && putStream.mock.results.length === 0; i += 1) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await expect(putStream.mock.results[0]!.value).rejects.toThrow('aborted');
    putStream.mockRestore();
    expect(await files()).toEqual([]);
  });

  it('keeps an upload in progress invisible until its last byte is written', async () => {
    const ticket = await ticketFor('tmp/slow.png');
    const headers = { 'content-type': 'image/png', 'content-length': String(png.length) };
    let midway: string[] = [];
    const answer = await rawRequest(ticket.url, 'PUT', headers, async (socket) => {
      socket.write(png.subarray(0, 500));
      for (let i = 0; i < 200 && midway.length === 0; i += 1) {
        await new Promise((r) => setTimeout(r, 10));
        midway = await files();
      }
      expect(await storage.head('tmp/slow.png')).toBeNull();
      socket.write(png.subarray(500));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(midway).toEqual([expect.stringMatching(/^tmp\/\.~tmp-[0-9a-f]{32}$/)]);
    expect(await files()).toEqual(['tmp/.~slow.png.meta.json', 'tmp/slow.png']);
  });

  it('refuses a tampered key, expiry, type, length or signature, a URL of the other method, and an expired URL', async () => {
    const ticket = await ticketFor('tmp/tamper.png');
    const url = new URL(ticket.url);
    const variant = (change: (u: URL) => void): string => {
      const copy = new URL(url);
      change(copy);
      return copy.toString();
    };
    const signatureValue = url.searchParams.get('X-Signature')!;
    const cases: [string, Buffer, string][] = [
      [variant((u) => (u.pathname = u.pathname.replace('tamper', 'other'))), png, 'image/png'],
      [
        variant((u) =>
          u.searchParams.set('X-Expires', String(Number(u.searchParams.get('X-Expires')) + 3600)),
        ),
        png,
        'image/png',
      ],
      [variant((u) => u.searchParams.set('X-Content-Type', 'image/jpeg')), png, 'image/jpeg'],
      [
        variant((u) => u.searchParams.set('X-Content-Length', String(png.length - 1))),
        png.subarray(1),
        'image/png',
      ],
      [
        variant((u) =>
          u.searchParams.set(
            'X-Signature',
            `${signatureValue[0] === 'A' ? 'B' : 'A'}${signatureValue.slice(1)}`,
          ),
        ),
        png,
        'image/png',
      ],
      [variant((u) => u.searchParams.delete('X-Signature')), png, 'image/png'],
      [variant((u) => u.searchParams.append('X-Expires', '1')), png, 'image/png'],
      [(await storage.presignGet({ key: 'tmp/tamper.png', expiresInSeconds: 300 })).url, png, 'image/png'],
    ];
    for (const [tampered, body, contentType] of cases) {
      const response = await upload(tampered, body, contentType);
      expect([tampered, response.status]).toEqual([tampered, 403]);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual(envelope(403));
      expect(text).not.toContain(directory);
    }
    expect((await fetch(ticket.url)).status).toBe(403);
    expect(await files()).toEqual([]);

    const past = new LocalObjectStorage({
      directory,
      baseUrl: base,
      secret,
      now: () => new Date(Date.now() - 120_000),
    });
    const expiredPut = await past.presignPut({
      key: 'tmp/late.png',
      contentType: 'image/png',
      contentLength: png.length,
      expiresInSeconds: 60,
    });
    expect(expiredPut.expiresAt.getTime()).toBeLessThan(Date.now());
    expect((await upload(expiredPut.url, png, 'image/png')).status).toBe(403);
    await storage.put('tmp/present.png', png, 'image/png');
    const expiredGet = await past.presignGet({ key: 'tmp/present.png', expiresInSeconds: 60 });
    expect((await fetch(expiredGet.url)).status).toBe(403);
    const otherSecret = new LocalObjectStorage({ directory, baseUrl: base, secret: randomBytes(32) });
    expect(
      (await fetch((await otherSecret.presignGet({ key: 'tmp/present.png', expiresInSeconds: 60 })).url))
        .status,
    ).toBe(403);
    expect(await files()).toEqual(['tmp/.~present.png.meta.json', 'tmp/present.png']);
  });

  it('answers 404 in the envelope for a signed GET or HEAD of a missing object, naming no file', async () => {
    const url = (await storage.presignGet({ key: 'files/none.png', expiresInSeconds: 60 })).url;
    const response = await fetch(url);
    expect(response.status).toBe(404);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(JSON.parse(text)).toEqual(envelope(404));
    expect(text).not.toContain(directory);
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(404);
    // A "directory" is not an object.
    await storage.put('files/dir/inner.png', png, 'image/png');
    expect(
      (await fetch((await storage.presignGet({ key: 'files/dir', expiresInSeconds: 60 })).url)).status,
    ).toBe(404);
  });

  it('has put, head, copy and delete behave as on S3', async () => {
    expect(await storage.head('tmp/source.png')).toBeNull();
    await storage.put('tmp/source.png', png, 'image/png');
    await storage.copy('tmp/source.png', 'files/fil_1/source.png');
    await storage.delete('tmp/source.png');
    expect(await storage.head('tmp/source.png')).toBeNull();
    expect(await storage.head('files/fil_1/source.png')).toEqual({
      key: 'files/fil_1/source.png',
      bytes: png.length,
      contentType: 'image/png',
    });
    // The emptied directory went with its last object.
    expect(await readdir(directory)).toEqual(['files']);

    await storage.put('files/fil_1/source.png', Buffer.from('{}'), 'application/json');
    expect(await storage.head('files/fil_1/source.png')).toEqual({
      key: 'files/fil_1/source.png',
      bytes: 2,
      contentType: 'application/json',
    });
    await storage.put('files/empty', Buffer.alloc(0), 'text/plain');
    expect(await storage.head('files/empty')).toEqual({
      key: 'files/empty',
      bytes: 0,
      contentType: 'text/plain',
    });

    await expect(storage.copy('tmp/missing.png', 'files/x.png')).rejects.toThrow('no object to copy');
    await expect(storage.delete('tmp/missing.png')).resolves.toBeUndefined();
    await storage.delete('files/fil_1/source.png');
    await storage.delete('files/empty');
    expect(await files()).toEqual([]);
    expect(await readdir(directory)).toEqual([]);
  });

  it('moves an object with its type, replacing the target, and answers false when there is none', async () => {
    await storage.put('tmp/uploads/fil_m', png, 'image/png');
    await storage.put('files/acc_m/fil_m', Buffer.from('old'), 'text/plain');
    expect(await storage.move('tmp/uploads/fil_m', 'files/acc_m/fil_m')).toBe(true);
    expect(await storage.head('tmp/uploads/fil_m')).toBeNull();
    expect(await storage.head('files/acc_m/fil_m')).toEqual({
      key: 'files/acc_m/fil_m',
      bytes: png.length,
      contentType: 'image/png',
    });
    expect((await storage.readBytes('files/acc_m/fil_m', png.length))!.body!.equals(png)).toBe(true);
    // The emptied temporary directories went; a second move of the same key finds nothing and changes nothing.
    expect(await readdir(directory)).toEqual(['files']);
    expect(await storage.move('tmp/uploads/fil_m', 'files/acc_m/fil_m')).toBe(false);
    expect(await storage.head('files/acc_m/fil_m')).toMatchObject({ bytes: png.length });
    await storage.delete('files/acc_m/fil_m');
    expect(await files()).toEqual([]);
  });

  it('lists the objects under a prefix written before a time, not its own files, up to a limit', async () => {
    await storage.put('aged/a/1', png, 'image/png');
    await storage.put('aged/a/deeper/2', png, 'image/png');
    await storage.put('aged/b', png, 'image/png');
    await storage.put('other/3', png, 'image/png');
    const later = new Date(Date.now() + 60_000);
    expect((await storage.listOlder('aged/', later, 10)).sort()).toEqual([
      'aged/a/1',
      'aged/a/deeper/2',
      'aged/b',
    ]);
    expect(await storage.listOlder('aged/a/', later, 10)).toEqual(expect.arrayContaining(['aged/a/1']));
    expect(await storage.listOlder('aged/', later, 2)).toHaveLength(2);
    expect(await storage.listOlder('aged/', new Date(Date.now() - 60_000), 10)).toEqual([]);
    expect(await storage.listOlder('absent/', later, 10)).toEqual([]);
    await expect(storage.listOlder('aged', later, 10)).rejects.toThrow('a prefix ends with "/"');
    for (const key of ['aged/a/1', 'aged/a/deeper/2', 'aged/b', 'other/3']) await storage.delete(key);
    expect(await files()).toEqual([]);
  });

  it('puts, moves and deletes while others empty and remove the same directories, for 2 seconds', async () => {
    // Uploads, commits (a move out of `tmp/uploads/`) and deletes at once, as a busy media app does: a recursive
    // mkdir that loses a parent it has just made or found to a concurrent delete fails with ENOENT or ENOTDIR,
    // and each write makes the directory again.
    const until = Date.now() + 2000;
    let rounds = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let round = 0; Date.now() < until; round += 1, rounds += 1) {
          const upload = `tmp/uploads/w${worker}-${round}`;
          const kept = `files/acc_${worker % 2}/w${worker}-${round}`;
          await storage.put(upload, png.subarray(0, 3), 'image/png');
          if (round % 2 === 1) {
            expect(await storage.move(upload, kept)).toBe(true);
            await storage.delete(kept);
          } else await storage.delete(upload);
        }
      }),
    );
    expect(rounds).toBeGreaterThan(100);
    expect(await files()).toEqual([]);
    expect(await readdir(directory)).toEqual([]);
  });

  it('writes while deletes of the same prefix remove its emptied directories (concurrent uploads and commits)', async () => {
    // Puts into a prefix whose directories other deletes are removing at the same moment, as concurrent
    // upload PUTs and commits (which delete their temporary object) do under `tmp/uploads/`.
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let round = 0; round < 400; round += 1) {
          const key = `race/uploads/deep/w${worker}-${round}`;
          await storage.put(key, png, 'image/png');
          await storage.delete(key);
        }
      }),
    );
    expect(await files()).toEqual([]);
    expect(await readdir(directory)).toEqual([]);
  });

  it('reads an object back as a stream with its size and type, and null when there is none', async () => {
    expect(await storage.read('tmp/absent.png')).toBeNull();
    await storage.put('tmp/read.png', png, 'image/png');
    const object = (await storage.read('tmp/read.png'))!;
    expect({ ...object, stream: undefined }).toEqual({
      key: 'tmp/read.png',
      bytes: png.length,
      contentType: 'image/png',
      stream: undefined,
    });
    const chunks: Buffer[] = [];
    for await (const chunk of object.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(png)).toBe(true);
    await storage.delete('tmp/read.png');
    expect(await storage.read('tmp/read.png')).toBeNull();
  });

  it('reads an object whole into one buffer, unless it is larger than asked, and null when there is none', async () => {
    expect(await storage.readBytes('tmp/absent.png', 1 << 20)).toBeNull();
    await storage.put('tmp/whole.png', png, 'image/png');
    const whole = (await storage.readBytes('tmp/whole.png', png.length))!;
    expect({ ...whole, body: undefined }).toEqual({
      key: 'tmp/whole.png',
      bytes: png.length,
      contentType: 'image/png',
      body: undefined,
    });
    expect(whole.body!.equals(png)).toBe(true);
    // One byte more than asked for: its size is told, its bytes are not read.
    expect(await storage.readBytes('tmp/whole.png', png.length - 1)).toEqual({
      key: 'tmp/whole.png',
      bytes: png.length,
      contentType: 'image/png',
      body: null,
    });
    await storage.put('tmp/empty', Buffer.alloc(0), 'text/plain');
    expect((await storage.readBytes('tmp/empty', 0))!.body).toEqual(Buffer.alloc(0));
    // A prefix of other keys is no object.
    await storage.put('tmp/dir/inner.png', png, 'image/png');
    expect(await storage.readBytes('tmp/dir', 1 << 20)).toBeNull();
    for (const key of ['tmp/whole.png', 'tmp/empty', 'tmp/dir/inner.png']) await storage.delete(key);
    expect(await files()).toEqual([]);
  });

  it('takes a zero-byte upload and a key with spaces and non-ASCII characters', async () => {
    const key = 'files/fil_2/été photo #1?.png';
    const empty = await storage.presignPut({
      key,
      contentType: 'image/png',
      contentLength: 0,
      expiresInSeconds: 60,
    });
    expect(new URL(empty.url).pathname).toBe('/objects/v1/files/fil_2/%C3%A9t%C3%A9%20photo%20%231%3F.png');
    expect((await upload(empty.url, Buffer.alloc(0), 'image/png')).status).toBe(200);
    expect(await storage.head(key)).toEqual({ key, bytes: 0, contentType: 'image/png' });

    const ticket = await ticketFor(key);
    expect((await upload(ticket.url, png, 'image/png')).status).toBe(200);
    const response = await fetch((await storage.presignGet({ key, expiresInSeconds: 60 })).url);
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);
    // `%2F` inside a segment does not make a new segment.
    const slashed = ticket.url.replace('fil_2/', 'fil_2%2F');
    expect((await upload(slashed, png, 'image/png')).status).toBe(403);
  });

  it('streams an 8 MiB body in and out', async () => {
    const big = randomBytes(8 * 1024 * 1024);
    const ticket = await ticketFor('tmp/big.bin', big);
    expect((await upload(ticket.url, big, 'image/png')).status).toBe(200);
    const response = await fetch(
      (await storage.presignGet({ key: 'tmp/big.bin', expiresInSeconds: 60 })).url,
    );
    expect(response.headers.get('content-length')).toBe(String(big.length));
    expect(Buffer.from(await response.arrayBuffer()).equals(big)).toBe(true);
  });

  it('refuses keys that could leave the directory or collide with its own files', async () => {
    const bad = [
      '',
      '/etc/passwd',
      '../x',
      'a/../../x',
      'a/./b',
      '..',
      'a//b',
      'a/',
      'a\\b',
      'a\0b',
      'a\nb',
      '.~tmp-1',
      'a/.~b.meta.json',
    ];
    for (const key of bad) {
      await expect(storage.put(key, png, 'image/png')).rejects.toThrow(/invalid object key/);
      await expect(storage.head(key)).rejects.toThrow(/invalid object key/);
      await expect(storage.presignGet({ key, expiresInSeconds: 60 })).rejects.toThrow(/invalid object key/);
      await expect(storage.delete(key)).rejects.toThrow(/invalid object key/);
    }
    await expect(storage.copy('a', '../b')).rejects.toThrow();
    expect(await files()).toEqual([]);
  });

  it('signs at most 7 days and only sendable content types and lengths', async () => {
    const put = { key: 'tmp/x.png', contentType: 'image/png', contentLength: 1 };
    await expect(
      storage.presignPut({ ...put, expiresInSeconds: MAX_SIGNED_URL_SECONDS }),
    ).resolves.toBeDefined();
    await expect(
      storage.presignPut({ ...put, expiresInSeconds: MAX_SIGNED_URL_SECONDS + 1 }),
    ).rejects.toThrow(RangeError);
    await expect(storage.presignGet({ key: 'tmp/x.png', expiresInSeconds: 0 })).rejects.toThrow(RangeError);
    await expect(storage.presignPut({ ...put, contentLength: -1, expiresInSeconds: 60 })).rejects.toThrow(
      RangeError,
    );
    await expect(storage.presignPut({ ...put, contentLength: 1.5, expiresInSeconds: 60 })).rejects.toThrow(
      RangeError,
    );
    await expect(storage.presignPut({ ...put, contentType: 'a\r\nb', expiresInSeconds: 60 })).rejects.toThrow(
      RangeError,
    );
    expect(() => new LocalObjectStorage({ directory, baseUrl: base, secret: randomBytes(16) })).toThrow(
      RangeError,
    );
  });

  it('keeps its catch-all body parser inside the plugin, behind the system route family', async () => {
    expect(routeFamily('/objects/v1/tmp/a.png?X-Expires=1')).toBe('system');
    const json = await fetch(`${base}/json`, {
      method: 'POST',
      body: png,
      headers: { 'content-type': 'image/png' },
    });
    expect(json.status).toBe(415);
    const ok = await fetch(`${base}/json`, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(await ok.json()).toEqual({ echoed: { a: 1 } });
    const large = await fetch(`${base}/json`, {
      method: 'POST',
      body: JSON.stringify({ a: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(large.status).toBe(413);
  });
});

describe('verify', () => {
  const storage = new LocalObjectStorage({
    directory: '/unused',
    baseUrl: 'http://h/',
    secret,
    now: () => new Date(1_000_000_000_000),
  });
  const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

  it('accepts its own URLs until they expire, and reports why it refuses one', async () => {
    const get = await storage.presignGet({ key: 'a/b.png', expiresInSeconds: 60 });
    expect(get.url).toMatch(/^http:\/\/h\/objects\/v1\/a\/b\.png\?X-Expires=1000000060&X-Signature=/);
    const query = queryOf(get.url);
    expect(verify(secret, 'GET', 'a/b.png', query, new Date(1_000_000_000_000))).toEqual({
      ok: true,
      expiresAt: new Date(1_000_000_060_000),
      secondsLeft: 60,
      upload: null,
    });
    const refused = (reason: string, field: string) => ({ ok: false, reason, field });
    expect(verify(secret, 'GET', 'a/b.png', query, new Date(1_000_000_060_000))).toEqual(
      refused('expired', 'X-Expires'),
    );
    expect(verify(randomBytes(32), 'GET', 'a/b.png', query, new Date(1_000_000_000_000))).toEqual(
      refused('bad_signature', 'X-Signature'),
    );
    expect(verify(secret, 'GET', 'a/c.png', query, new Date(1_000_000_000_000))).toEqual(
      refused('bad_signature', 'X-Signature'),
    );
    expect(verify(secret, 'PUT', 'a/b.png', query, new Date(1_000_000_000_000))).toEqual(
      refused('malformed', 'X-Content-Type'),
    );
    expect(
      verify(secret, 'GET', 'a/b.png', { ...query, 'X-Expires': ['1', '2'] }, new Date(1_000_000_000_000)),
    ).toEqual(refused('malformed', 'X-Expires'));
    expect(
      verify(secret, 'GET', 'a/b.png', { ...query, 'X-Signature': 'x' }, new Date(1_000_000_000_000)),
    ).toEqual(refused('malformed', 'X-Signature'));
    expect(verify(secret, 'GET', '../b.png', query, new Date(1_000_000_000_000))).toEqual(
      refused('malformed', 'key'),
    );

    const put = await storage.presignPut({
      key: 'a/b.png',
      contentType: 'image/png',
      contentLength: 7,
      expiresInSeconds: 60,
    });
    expect(verify(secret, 'PUT', 'a/b.png', queryOf(put.url), new Date(1_000_000_000_000))).toMatchObject({
      ok: true,
      upload: { contentType: 'image/png', contentLength: 7 },
    });
    expect(verify(secret, 'GET', 'a/b.png', queryOf(put.url), new Date(1_000_000_000_000))).toEqual(
      refused('bad_signature', 'X-Signature'),
    );
  });
});
