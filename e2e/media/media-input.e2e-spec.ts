import { createScratchPostgres, selfSignedCertificate, type ScratchDatabase } from '@gen/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
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
type Auth = Record<string, string>;

/** A source on port 443 of its own loopback address, allowed by FETCH_ALLOW_PRIVATE_CIDRS; INTERNAL is not. */
const SOURCE = '127.0.1.65';
const INTERNAL = '127.0.1.66';

/** A picture whose left half is red and right half blue: an output made from it shows the same. */
async function halves(width: number, height: number): Promise<Buffer> {
  const half = (colour: string) =>
    sharp({ create: { width: width / 2, height, channels: 3, background: colour } })
      .png()
      .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#000' } })
    .composite([
      { input: await half('#e01010'), left: 0, top: 0 },
      { input: await half('#1010e0'), left: width / 2, top: 0 },
    ])
    .png()
    .toBuffer();
}

/**
 * Media files in task input in distributed mode: the tasks app checks service:// URIs at acceptance (FILES_PORT
 * of the media app), and before the model runs the runner (its own process) has the media app read the file
 * from S3 or fetch the URL through the SSRF guard (MEDIA_INPUTS, over service calls).
 */
describe('media files in task input across separate processes (distributed mode)', () => {
  let database: ScratchDatabase;
  let dataDir: string;
  let certDir: string;
  let source: Server;
  let internalHits = 0;
  let internal: Server;
  const apps: AppProcess[] = [];
  let ingress: AppsIngress;
  let owner: Auth;
  let admin: Auth;
  let picture: Buffer;

  const listen = (server: Server, host: string) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(443, host, resolve);
    });

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    picture = await halves(96, 48);
    certDir = mkdtempSync(join(tmpdir(), 'gts-e2e-media-input-cert-'));
    const cert = selfSignedCertificate(certDir, 'media input', [`IP:${SOURCE}`, `IP:${INTERNAL}`]);
    source = createServer({ key: cert.key, cert: cert.cert }, (request, response) => {
      if (request.url === '/halves.png')
        response.writeHead(200, { 'content-type': 'image/png' }).end(picture);
      else response.writeHead(404).end();
    });
    internal = createServer({ key: cert.key, cert: cert.cert }, (_request, response) => {
      internalHits += 1;
      response.writeHead(200, { 'content-type': 'image/png' }).end(picture);
    });
    await Promise.all([listen(source, SOURCE), listen(internal, INTERNAL)]);
    database = await createScratchPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'gts-e2e-media-input-'));
    const env = {
      ...serviceSettings(),
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      FETCH_ALLOW_PRIVATE_CIDRS: `${SOURCE}/32`,
      FETCH_CA_FILE: cert.file,
    };
    // Migrations run under advisory locks, so the apps may start together. The media app reads the media
    // inputs for the runner (MEDIA_INPUTS, over service calls): it fetches the URLs, with the settings above.
    const calls = await serviceCalls();
    apps.push(
      ...(await Promise.all(
        ['gateway', 'runner', 'tasks', 'billing', 'compat-protocols', 'media', 'catalog'].map((app) =>
          startAppProcess(app, { ...env, ...calls.env(app) }),
        ),
      )),
    );
    ingress = await startIngress(apps);
    const boot = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      apiKey: string;
      adminToken: string;
    };
    owner = { authorization: `Bearer ${boot.apiKey}` };
    admin = { authorization: `Bearer ${boot.adminToken}` };
  });

  afterAll(async () => {
    ingress?.close();
    const codes = await Promise.all(apps.map((app) => app.stop()));
    await database.drop();
    source.closeAllConnections();
    internal.closeAllConnections();
    await Promise.all([new Promise((r) => source.close(r)), new Promise((r) => internal.close(r))]);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(certDir, { recursive: true, force: true });
    expect(codes.filter((code) => code !== 0)).toEqual([]);
  });

  async function call(auth: Auth, method: string, path: string, body?: unknown) {
    const response = await fetch(`${ingress.baseUrl}${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Json };
  }
  const dataOf = (reply: { json: Json }) => reply.json['data'] as Json;

  async function customer(): Promise<Auth> {
    const account = await call(admin, 'POST', '/admin/v1/accounts', { name: 'media e2e', credit: '1' });
    const accountId = dataOf(account)['accountId'] as string;
    const key = await call(admin, 'POST', `/admin/v1/accounts/${accountId}/keys`, {});
    return { authorization: `Bearer ${dataOf(key)['apiKey'] as string}` };
  }

  async function committed(auth: Auth, bytes: Buffer): Promise<string> {
    const body = { fileName: 'halves.png', contentType: 'image/png', bytes: bytes.length };
    const ticket = dataOf(await call(auth, 'POST', '/api/v1/common/upload-url', body)) as {
      fileId: string;
      uploadUrl: string;
    };
    expect(ticket.uploadUrl.startsWith(process.env['S3_ENDPOINT']!)).toBe(true);
    const put = await fetch(ticket.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: bytes,
    });
    expect(put.status).toBe(200);
    const commit = await call(auth, 'POST', `/api/v1/files/${ticket.fileId}/commit`);
    expect(commit.status).toBe(200);
    return dataOf(commit)['uri'] as string;
  }

  async function settled(auth: Auth, taskId: string): Promise<Json> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const task = dataOf(await call(auth, 'GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`));
      if (task['settled'] === true) return task;
      if (Date.now() > deadline) throw new Error(`${taskId} stayed ${JSON.stringify(task)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Red minus blue near the left and the right edge of the first output's middle row. */
  async function leftAndRight(task: Json): Promise<[number, number]> {
    const asset = (task['output'] as { assets: Json[] }).assets[0]!;
    const response = await fetch(asset['url'] as string);
    expect(response.status).toBe(200);
    const png = Buffer.from(await response.arrayBuffer());
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number) => {
      const o = (Math.floor(info.height / 2) * info.width + x) * info.channels;
      return data[o]! - data[o + 2]!;
    };
    return [at(4), at(info.width - 5)];
  }

  const create = (auth: Auth, input: Json) =>
    call(auth, 'POST', '/api/v1/jobs/createTask', { model: 'local/sketch', input });
  const balance = async (auth: Auth) => dataOf(await call(auth, 'GET', '/api/v1/chat/credit'));

  it('draws from an own uploaded file, read from S3 for the runner by the media app', async () => {
    const image = await committed(owner, picture);
    const reply = await create(owner, { prompt: 'the same, at dusk', width: 128, height: 64, image });
    expect(reply.status).toBe(202);
    const task = await settled(owner, dataOf(reply)['taskId'] as string);
    expect(task).toMatchObject({ state: 'succeeded', cost: '0.004' });
    const [left, right] = await leftAndRight(task);
    expect(left).toBeGreaterThan(100);
    expect(right).toBeLessThan(-100);
  });

  it("refuses another account's file at acceptance exactly as a missing one, holding nothing", async () => {
    const theirs = await committed(owner, picture);
    const stranger = await customer();
    const before = await balance(stranger);
    for (const image of [theirs, 'service://files/fil_01JD8ZK3W4C6T2M7Q9R5X1Y0AB']) {
      const reply = await create(stranger, { prompt: 'x', image });
      expect(reply.status).toBe(400);
      expect(reply.json['msg']).toBe(
        'The field input.image does not name a ready file of this account. Upload and commit the file, then use the uri the commit answered.',
      );
    }
    expect(await balance(stranger)).toEqual(before);
    expect(dataOf(await call(stranger, 'GET', '/api/v1/jobs'))['items']).toEqual([]);
  });

  it('fetches an allowed https URL for the runner (the media app), and fails a private one uncharged without connecting', async () => {
    const auth = await customer();
    const fetched = await create(auth, {
      prompt: 'x',
      width: 64,
      height: 64,
      image: `https://${SOURCE}/halves.png`,
    });
    const refused = await create(auth, { prompt: 'x', image: `https://${INTERNAL}/halves.png` });
    expect([fetched.status, refused.status]).toEqual([202, 202]);
    const [good, bad] = await Promise.all(
      [fetched, refused].map((reply) => settled(auth, dataOf(reply)['taskId'] as string)),
    );
    expect(good).toMatchObject({ state: 'succeeded', cost: '0.004' });
    const [left, right] = await leftAndRight(good!);
    expect(left).toBeGreaterThan(100);
    expect(right).toBeLessThan(-100);
    expect(bad).toMatchObject({ state: 'failed', errorCode: 'input_unavailable', cost: '0' });
    expect(internalHits).toBe(0);
    expect(await balance(auth)).toMatchObject({ available: '0.996', held: '0' });
  });
});
