import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE, type Database } from '@gen/persistence';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { selfSignedCertificate } from '@gen/testing';
import { jpegSample, mp4Sample, pngSample } from '../testing/media-samples';
import { startMediaApp, type MediaTestApp } from '../testing/media-test-app';

/**
 * Imports may only fetch https on port 443, so the sources listen on port 443 of addresses of their own in
 * 127.0.1.0/24 (the webhook tests use 127.0.0.0/24); this needs the right to bind port 443. Only the source's
 * address is allowed by FETCH_ALLOW_PRIVATE_CIDRS; the "internal" server's is not.
 */
const SOURCE = '127.0.1.41';
const INTERNAL = '127.0.1.42';
const TOKEN = 'tok-once-7f3a9c';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** The import deadline of the second app (FETCH_DEADLINE_SECONDS), and its bound of imports per key. */
const DEADLINE_SECONDS = 2;
const IMPORTS_PER_KEY = 2;

/** One connection of the slow-drip source: when it started, and when the source saw it closed. */
interface Drip {
  readonly openedAt: number;
  closedAt?: number;
  sent: number;
  readonly closed: Promise<void>;
}

describe('imports from a link', () => {
  let app: MediaTestApp;
  let storage: ObjectStorage;
  let database: Database;
  let dir: string;
  let source: Server;
  let internal: Server;
  const seen: { path: string; authorization: string | undefined }[] = [];
  let internalHits = 0;
  let hugeSent = 0;
  const usedTokens = new Set<string>();
  /** An app with a short deadline and a small bound of imports per key, beside the default one. */
  let short: MediaTestApp;
  const drips: Drip[] = [];
  let mp4: Buffer;
  let png: Buffer;
  let jpeg: Buffer;

  const routes: Record<string, Handler> = {
    '/private/clip.mp4': (request, response) => {
      const token = request.headers.authorization;
      if (token !== `Bearer ${TOKEN}` || usedTokens.has(token)) return void response.writeHead(401).end();
      usedTokens.add(token);
      response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': mp4.length }).end(mp4);
    },
    '/moved': (_request, response) => void response.writeHead(302, { location: '/public/pic' }).end(),
    '/public/pic': (_request, response) =>
      void response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(png),
    '/to-internal': (_request, response) =>
      void response.writeHead(302, { location: `https://${INTERNAL}/secret.png` }).end(),
    '/to-http': (_request, response) =>
      void response.writeHead(301, { location: `http://${SOURCE}/public/pic` }).end(),
    '/loop': (_request, response) => void response.writeHead(307, { location: '/loop' }).end(),
    '/missing': (_request, response) => void response.writeHead(404).end('no'),
    '/spoofed.png': (_request, response) =>
      void response.writeHead(200, { 'content-type': 'image/png' }).end(jpeg),
    '/big.png': (_request, response) =>
      void response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(10 * 1024 * 1024 + 1)),
    // One byte every 200 ms, for ever: the idle timeout (30 s) never fires, only the deadline ends it.
    '/drip': (_request, response) => {
      let done!: () => void;
      const drip: Drip = { openedAt: Date.now(), sent: 0, closed: new Promise<void>((r) => (done = r)) };
      drips.push(drip);
      response.writeHead(200, { 'content-type': 'video/mp4' });
      const timer = setInterval(() => {
        drip.sent += 1;
        response.write(Buffer.from([drip.sent % 256]));
      }, 200);
      response.on('close', () => {
        clearInterval(timer);
        drip.closedAt = Date.now();
        done();
      });
      response.on('error', () => undefined);
    },
    '/huge': (_request, response) => {
      // No Content-Length: the limit must hold while the body streams in.
      response.writeHead(200, { 'content-type': 'video/mp4' });
      const chunk = Buffer.alloc(1024 * 1024);
      const pump = (): void => {
        while (hugeSent < 200 * 1024 * 1024 && !response.destroyed) {
          hugeSent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      response.on('error', () => undefined);
      pump();
    },
  };

  const listen = (server: Server, host: string) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(443, host, resolve);
    });

  beforeAll(async () => {
    [mp4, png, jpeg] = [mp4Sample(3, 64, 48), await pngSample(20, 10), await jpegSample()];
    dir = mkdtempSync(join(tmpdir(), 'gts-import-'));
    const cert = selfSignedCertificate(dir, 'import test', [`IP:${SOURCE}`, `IP:${INTERNAL}`]);
    source = createServer({ key: cert.key, cert: cert.cert }, (request, response) => {
      const path = (request.url ?? '').split('?')[0]!;
      seen.push({ path, authorization: request.headers.authorization });
      (routes[path] ?? ((_q, r: ServerResponse) => void r.writeHead(404).end()))(request, response);
    });
    internal = createServer({ key: cert.key, cert: cert.cert }, (_request, response) => {
      internalHits += 1;
      response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    await Promise.all([listen(source, SOURCE), listen(internal, INTERNAL)]);
    app = await startMediaApp({ FETCH_ALLOW_PRIVATE_CIDRS: `${SOURCE}/32`, FETCH_CA_FILE: cert.file });
    short = await startMediaApp({
      FETCH_ALLOW_PRIVATE_CIDRS: `${SOURCE}/32`,
      FETCH_CA_FILE: cert.file,
      FETCH_DEADLINE_SECONDS: String(DEADLINE_SECONDS),
      IMPORT_CONCURRENCY_PER_KEY: String(IMPORTS_PER_KEY),
    });
    storage = app.app.get<ObjectStorage>(OBJECT_STORAGE);
    database = app.app.get<Database>(DATABASE);
  });
  afterAll(async () => {
    await app.close();
    await short.close();
    source.closeAllConnections();
    internal.closeAllConnections();
    await Promise.all([new Promise((r) => source.close(r)), new Promise((r) => internal.close(r))]);
    rmSync(dir, { recursive: true, force: true });
  });

  const importFile = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.call('POST', '/api/v1/files/import', { body, headers });
  const fileCount = async () =>
    (await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM "media"."files"`))[0]!.n;

  it('fetches with a one-time token the source checks, then verifies and commits like an upload', async () => {
    const reply = await importFile({ url: `https://${SOURCE}/private/clip.mp4`, accessToken: TOKEN });
    expect(reply.status).toBe(200);
    const record = reply.json['data'] as Record<string, unknown>;
    expect(record).toEqual({
      fileId: expect.stringMatching(/^fil_/),
      uri: `service://files/${record['fileId'] as string}`,
      state: 'ready',
      contentType: 'video/mp4',
      bytes: mp4.length,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      width: 64,
      height: 48,
      durationSeconds: 3,
    });
    expect(seen.filter((s) => s.path === '/private/clip.mp4')).toEqual([
      { path: '/private/clip.mp4', authorization: `Bearer ${TOKEN}` },
    ]);
    const fileId = record['fileId'] as string;
    expect(await storage.head(`files/acc_owner/${fileId}`)).toMatchObject({ bytes: mp4.length });
    expect(await storage.head(`tmp/uploads/${fileId}`)).toBeNull();
    const rows = await database.query(`SELECT * FROM "media"."files" WHERE "id" = $1`, [fileId]);
    expect(rows[0]).toMatchObject({ source: 'import', state: 'ready', file_name: 'clip.mp4' });
    // The token is never stored or logged.
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
    expect(app.logs.join('\n')).not.toContain(TOKEN);
    // It was good for one use only: the source refuses it now, and the import says so.
    const again = await importFile({ url: `https://${SOURCE}/private/clip.mp4`, accessToken: TOKEN });
    expect(again.status).toBe(400);
    expect(again.json['msg']).toBe('The import URL answered HTTP 401. Nothing was imported.');
  });

  it('follows a redirect that passes the same checks, without the token, and detects the type from the bytes', async () => {
    seen.length = 0;
    const reply = await importFile({
      url: `https://${SOURCE}/moved`,
      accessToken: 'tok-other',
      fileName: 'mine.png',
    });
    expect(reply.status).toBe(200);
    expect(reply.json['data']).toMatchObject({
      contentType: 'image/png',
      width: 20,
      height: 10,
      bytes: png.length,
    });
    expect(seen).toEqual([
      { path: '/moved', authorization: 'Bearer tok-other' },
      { path: '/public/pic', authorization: undefined },
    ]);
    const fileId = (reply.json['data'] as { fileId: string }).fileId;
    expect(
      (await database.query(`SELECT "file_name" FROM "media"."files" WHERE "id" = $1`, [fileId]))[0],
    ).toEqual({
      file_name: 'mine.png',
    });
  });

  it.each([
    ['a redirect to a private address', '/to-internal'],
    ['a redirect to http', '/to-http'],
    ['endless redirects', '/loop'],
  ])('refuses %s with 400, fetching nothing from there', async (_name, path) => {
    const before = await fileCount();
    const reply = await importFile({ url: `https://${SOURCE}${path}` }, { 'accept-language': 'de' });
    expect(reply.status).toBe(400);
    expect(reply.headers.get('content-language')).toBe('de');
    expect(reply.json['msg']).toMatch(/^Die Import-URL hat an ein nicht erlaubtes Ziel weitergeleitet/);
    expect(internalHits).toBe(0);
    expect(await fileCount()).toBe(before);
  });

  it.each([
    ['http', `http://${SOURCE}/public/pic`],
    ['a private address', `https://${INTERNAL}/secret.png`],
    ['another port', `https://${SOURCE}:8443/public/pic`],
    ['credentials', `https://user:pw@${SOURCE}/public/pic`],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data/'],
    ['no URL at all', 'not a url'],
  ])('refuses %s before connecting', async (_name, url) => {
    const before = seen.length;
    const reply = await importFile({ url });
    expect(reply.status).toBe(400);
    expect(reply.json['msg']).toBe(
      'The import URL must be an https URL on port 443, without user name or password, whose host resolves to public addresses only.',
    );
    expect(seen.length).toBe(before);
    expect(internalHits).toBe(0);
  });

  it('reports the source’s status, and refuses what fails verification, keeping nothing', async () => {
    const missing = await importFile({ url: `https://${SOURCE}/missing` });
    expect([missing.status, missing.json['msg']]).toEqual([
      400,
      'The import URL answered HTTP 404. Nothing was imported.',
    ]);
    const spoofed = await importFile({ url: `https://${SOURCE}/spoofed.png` });
    expect(spoofed.status).toBe(400);
    expect(spoofed.json['msg']).toBe(
      'The file is not image/png: its content is image/jpeg. Nothing was kept.',
    );
    const rows = await database.query<{ id: string; state: string }>(
      `SELECT "id", "state" FROM "media"."files" WHERE "refusal" = 'media.type_mismatch'`,
    );
    expect(rows).toHaveLength(1);
    expect(await storage.head(`tmp/uploads/${rows[0]!.id}`)).toBeNull();
    expect(await storage.head(`files/acc_owner/${rows[0]!.id}`)).toBeNull();
  });

  it('enforces the size limits: 100 MiB while streaming, then the type’s own', async () => {
    const before = await fileCount();
    const huge = await importFile({ url: `https://${SOURCE}/huge` });
    expect(huge.status).toBe(413);
    expect(huge.json['msg']).toBe(
      'The file at the import URL is larger than 104857600 bytes. Nothing was imported.',
    );
    expect(hugeSent).toBeLessThan(200 * 1024 * 1024);
    const big = await importFile({ url: `https://${SOURCE}/big.png` });
    expect(big.status).toBe(413);
    expect(big.json['msg']).toBe('The file is too large: a image/png file may have at most 10485760 bytes.');
    expect(await fileCount()).toBe(before);
  });

  describe('imports end', () => {
    const filesOf = async (target: MediaTestApp) =>
      (
        await target.app
          .get<Database>(DATABASE)
          .query<{ n: number }>(`SELECT count(*)::int AS n FROM "media"."files"`)
      )[0]!.n;
    /** Waits for the source to see the connection of `drip` closed; fails after `ms`. */
    const closedWithin = async (drip: Drip, ms: number): Promise<void> => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          drip.closed,
          new Promise<never>((_resolve, reject) => {
            timer = setTimeout(
              () => reject(new Error(`the source's connection is still open after ${ms} ms`)),
              ms,
            );
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    };

    it('ends a source that sends one byte every 200 ms at the deadline, with a 400 that says so', async () => {
      const before = await filesOf(short);
      const first = drips.length;
      const started = Date.now();
      const reply = await short.call('POST', '/api/v1/files/import', {
        body: { url: `https://${SOURCE}/drip` },
      });
      const took = Date.now() - started;
      expect({ status: reply.status, body: reply.json }).toEqual({
        status: 400,
        body: {
          code: 400,
          msg: `The import URL did not send the whole file within ${DEADLINE_SECONDS} seconds. Nothing was imported.`,
          request_id: expect.stringMatching(/^req_/),
        },
      });
      // Every byte restarted the 30-second idle timeout: only the deadline ended it, on time.
      expect(took).toBeGreaterThanOrEqual(DEADLINE_SECONDS * 1000 - 50);
      expect(took).toBeLessThan(DEADLINE_SECONDS * 1000 + 3000);
      const drip = drips[first]!;
      await closedWithin(drip, 2000);
      expect(drip.sent).toBeGreaterThan(3);
      expect(drip.closedAt! - drip.openedAt).toBeLessThan(DEADLINE_SECONDS * 1000 + 2000);
      expect(await filesOf(short)).toBe(before);
      // In the caller's language too.
      const german = await short.call('POST', '/api/v1/files/import', {
        body: { url: `https://${SOURCE}/drip` },
        headers: { 'accept-language': 'de' },
      });
      expect(german.json['msg']).toBe(
        `Die Import-URL hat die Datei nicht innerhalb von ${DEADLINE_SECONDS} Sekunden vollständig gesendet. Es wurde nichts importiert.`,
      );
    });

    it('stops the fetch when the client goes away: the source sees its connection closed', async () => {
      // The default app: a deadline of 120 s, so only the client's leaving can end this one soon.
      expect(app.config.FETCH_DEADLINE_SECONDS).toBe(120);
      const before = await fileCount();
      const first = drips.length;
      const client = new AbortController();
      const request = fetch(`${app.baseUrl}/api/v1/files/import`, {
        method: 'POST',
        headers: { authorization: 'Bearer gts_owner', 'content-type': 'application/json' },
        body: JSON.stringify({ url: `https://${SOURCE}/drip` }),
        signal: client.signal,
      });
      const until = Date.now() + 5000;
      while (drips.length === first && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      const drip = drips[first]!;
      expect(drip).toBeDefined();
      await new Promise((r) => setTimeout(r, 500));
      const gaveUpAt = Date.now();
      client.abort();
      await expect(request).rejects.toThrow();
      await closedWithin(drip, 3000);
      expect(drip.closedAt! - gaveUpAt).toBeLessThan(3000);
      const sentThen = drip.sent;
      await new Promise((r) => setTimeout(r, 500));
      expect(drip.sent).toBe(sentThen);
      expect(await fileCount()).toBe(before);
      // The import let its slot go: the key imports again at once.
      const next = await importFile({ url: `https://${SOURCE}/public/pic` });
      expect(next.status).toBe(200);
    });

    it(`bounds the imports a key has in progress (${IMPORTS_PER_KEY}): one more is 429 with Retry-After, fetching nothing`, async () => {
      const before = await filesOf(short);
      const first = drips.length;
      const running = Array.from({ length: IMPORTS_PER_KEY }, () =>
        short.call('POST', '/api/v1/files/import', { body: { url: `https://${SOURCE}/drip` } }),
      );
      const until = Date.now() + 5000;
      while (drips.length < first + IMPORTS_PER_KEY && Date.now() < until)
        await new Promise((r) => setTimeout(r, 20));
      expect(drips.length).toBe(first + IMPORTS_PER_KEY);
      const hits = seen.length;
      const refused = await short.call('POST', '/api/v1/files/import', {
        body: { url: `https://${SOURCE}/public/pic` },
      });
      expect({ status: refused.status, body: refused.json }).toEqual({
        status: 429,
        body: {
          code: 429,
          msg: `This API key already has ${IMPORTS_PER_KEY} imports in progress, the most it may have at once. Retry after 5 seconds.`,
          request_id: expect.stringMatching(/^req_/),
        },
      });
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(seen.length).toBe(hits);
      // Per key: another key of the same account still imports.
      const other = await short.call('POST', '/api/v1/files/import', {
        key: 'gts_owner2',
        body: { url: `https://${SOURCE}/public/pic` },
      });
      expect(other.status).toBe(200);
      // Once the running ones ended (at their deadline), the key imports again.
      expect((await Promise.all(running)).map((r) => r.status)).toEqual(
        Array.from({ length: IMPORTS_PER_KEY }, () => 400),
      );
      const again = await short.call('POST', '/api/v1/files/import', {
        body: { url: `https://${SOURCE}/public/pic` },
      });
      expect(again.status).toBe(200);
      expect(await filesOf(short)).toBe(before + 2);
    });
  });
});
