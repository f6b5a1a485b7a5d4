import { S3ObjectStorage } from '@gen/storage';
import { createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import {
  serviceCalls,
  serviceSettings,
  startAppProcess,
  startIngress,
  type AppProcess,
  type AppsIngress,
} from '../support/app-process';

const root = join(__dirname, '..', '..');
type Json = Record<string, unknown>;

/**
 * Direct uploads in distributed mode: the media app serves the routes (through the fleet's ingress) and runs its
 * workers, the
 * bytes go straight to the S3-compatible server with the presigned PUT, which itself refuses another length
 * or content type.
 */
describe('direct uploads through S3 (distributed mode)', () => {
  let database: ScratchDatabase;
  let dataDir: string;
  const apps: AppProcess[] = [];
  let ingress: AppsIngress;
  let auth: Record<string, string>;
  let accountId: string;
  let storage: S3ObjectStorage;
  const prefix = `e2e-media-${randomBytes(4).toString('hex')}/`;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    database = await createScratchPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'gts-media-'));
    const env = {
      ...serviceSettings(),
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      S3_KEY_PREFIX: prefix,
      S3_BUCKET: 'generation-media',
    };
    // Billing too: the gateway's first start credits the demo account through it (service calls).
    const calls = await serviceCalls();
    const started = await Promise.all(
      ['gateway', 'media', 'billing'].map((app) => startAppProcess(app, { ...env, ...calls.env(app) })),
    );
    apps.push(...started);
    ingress = await startIngress(started);
    const boot = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      apiKey: string;
      accountId: string;
    };
    auth = { authorization: `Bearer ${boot.apiKey}` };
    accountId = boot.accountId;
    storage = new S3ObjectStorage({
      endpoint: process.env['S3_ENDPOINT']!,
      region: process.env['S3_REGION'] ?? 'us-east-1',
      bucket: 'generation-media',
      accessKeyId: process.env['S3_ACCESS_KEY_ID']!,
      secretAccessKey: process.env['S3_SECRET_ACCESS_KEY']!,
      forcePathStyle: process.env['S3_FORCE_PATH_STYLE'] !== 'false',
      keyPrefix: prefix,
    });
  });

  afterAll(async () => {
    ingress?.close();
    const codes = await Promise.all(apps.map((app) => app.stop()));
    storage.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
    expect(codes.filter((code) => code !== 0)).toEqual([]);
  });

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
    const response = await fetch(`${ingress.baseUrl}${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Json };
  }

  async function ticket(bytes: number, contentType = 'image/png') {
    const reply = await call('POST', '/api/v1/common/upload-url', {
      fileName: 'e2e.png',
      contentType,
      bytes,
    });
    expect(reply.status).toBe(200);
    return reply.json['data'] as { fileId: string; uploadUrl: string; headers: Record<string, string> };
  }

  const put = (url: string, body: Buffer, contentType: string) =>
    fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });

  it('refuses a truncated, an oversized and a retyped PUT at the storage; commits the exact one', async () => {
    const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#a52' } })
      .png()
      .toBuffer();
    const { fileId, uploadUrl, headers } = await ticket(png.length);
    expect(uploadUrl.startsWith(process.env['S3_ENDPOINT']!)).toBe(true);
    expect(headers).toEqual({ 'content-type': 'image/png', 'content-length': String(png.length) });

    expect((await put(uploadUrl, png.subarray(0, png.length - 1), 'image/png')).status).toBe(403);
    expect((await put(uploadUrl, Buffer.concat([png, Buffer.from([0])]), 'image/png')).status).toBe(403);
    expect((await put(uploadUrl, png, 'image/jpeg')).status).toBe(403);
    expect(await storage.head(`tmp/uploads/${fileId}`)).toBeNull();
    const pending = await call('POST', `/api/v1/files/${fileId}/commit`);
    expect([pending.status, pending.json['code']]).toEqual([409, 409]);

    expect((await put(uploadUrl, png, 'image/png')).status).toBe(200);
    const [a, b] = await Promise.all([
      call('POST', `/api/v1/files/${fileId}/commit`),
      call('POST', `/api/v1/files/${fileId}/commit`),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.json['data']).toEqual(b.json['data']);
    expect(a.json['data']).toEqual({
      fileId,
      uri: `service://files/${fileId}`,
      state: 'ready',
      contentType: 'image/png',
      bytes: png.length,
      sha256: createHash('sha256').update(png).digest('hex'),
      width: 30,
      height: 20,
    });
    expect(await storage.head(`tmp/uploads/${fileId}`)).toBeNull();
    expect(await storage.head(`files/${accountId}/${fileId}`)).toEqual({
      key: `files/${accountId}/${fileId}`,
      bytes: png.length,
      contentType: 'image/png',
    });
  });

  it('refuses a spoofed type with 400 and leaves no object behind', async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123' } })
      .jpeg()
      .toBuffer();
    const { fileId, uploadUrl } = await ticket(jpeg.length, 'image/png');
    expect((await put(uploadUrl, jpeg, 'image/png')).status).toBe(200);
    const reply = await call('POST', `/api/v1/files/${fileId}/commit`);
    expect(reply.status).toBe(400);
    expect(reply.json['msg']).toBe('The file is not image/png: its content is image/jpeg. Nothing was kept.');
    expect(await storage.head(`tmp/uploads/${fileId}`)).toBeNull();
    expect(await storage.head(`files/${accountId}/${fileId}`)).toBeNull();
  });
});
