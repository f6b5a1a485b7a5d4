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
    storage = app.app.get<ObjectStorage>(OBJECT_STORAGE);
    database = app.app.get<Database>(DATABASE);
  });
  afterAll(async () => {
    await app.close();
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
});
