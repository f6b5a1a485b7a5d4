import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { probeMedia } from '@gen/providers';
import { OpenApiCheck, selfSignedCertificate } from '@gen/testing';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

type Json = Record<string, unknown>;
type Auth = Record<string, string>;

jest.setTimeout(90_000);

/**
 * Media URLs of task input are fetched like imports: https on port 443 of addresses of their own in
 * 127.0.1.0/24 (see libs/media's import tests). FETCH_ALLOW_PRIVATE_CIDRS allows SOURCE, not INTERNAL.
 */
const SOURCE = '127.0.1.63';
const INTERNAL = '127.0.1.64';
const dataOf = (reply: Reply) => reply.json['data'] as Json;

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

describe('media files in task input (embedded mode): service:// URIs and https URLs', () => {
  let app: Embedded;
  let openApi: OpenApiCheck;
  let dir: string;
  let source: Server;
  let internal: Server;
  let internalHits = 0;
  let picture: Buffer;

  const listen = (server: Server, host: string) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(443, host, resolve);
    });

  beforeAll(async () => {
    picture = await halves(96, 48);
    dir = mkdtempSync(join(tmpdir(), 'gts-embedded-media-input-'));
    const cert = selfSignedCertificate(dir, 'media input', [`IP:${SOURCE}`, `IP:${INTERNAL}`]);
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
    app = await startEmbedded({
      LOG_LEVEL: 'silent',
      FETCH_ALLOW_PRIVATE_CIDRS: `${SOURCE}/32`,
      FETCH_CA_FILE: cert.file,
    });
    openApi = new OpenApiCheck((await app.call('GET', '/openapi.json')).json);
  });
  afterAll(async () => {
    // A start that failed (its addresses taken) is reported by beforeAll, not hidden behind this.
    await app?.close();
    source.closeAllConnections();
    internal.closeAllConnections();
    await Promise.all([new Promise((r) => source.close(r)), new Promise((r) => internal.close(r))]);
    rmSync(dir, { recursive: true, force: true });
  });

  async function call(method: string, path: string, options: Parameters<Embedded['call']>[2] = {}) {
    const reply = await app.call(method, path, options);
    openApi.check(method, path, reply.status, reply.headers, reply.json);
    return reply;
  }

  /** A new account with one dollar and one key. */
  async function customer(): Promise<Auth> {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 'media', credit: '1' })) as {
      accountId: string;
    };
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    return { authorization: `Bearer ${apiKey}` };
  }

  /** Uploads and commits `bytes`; the file's service:// URI. */
  async function committed(auth: Auth, bytes: Buffer, contentType: string): Promise<string> {
    const body = { fileName: 'in', contentType, bytes: bytes.length };
    const ticket = dataOf(await call('POST', '/api/v1/common/upload-url', { headers: auth, body })) as {
      fileId: string;
      uploadUrl: string;
    };
    const put = await fetch(ticket.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': contentType },
      body: bytes,
    });
    expect(put.status).toBe(200);
    const commit = await call('POST', `/api/v1/files/${ticket.fileId}/commit`, { headers: auth });
    expect(commit.status).toBe(200);
    return dataOf(commit)['uri'] as string;
  }

  const balance = async (auth: Auth) => dataOf(await call('GET', '/api/v1/chat/credit', { headers: auth }));
  const jobs = async (auth: Auth) => dataOf(await call('GET', '/api/v1/jobs', { headers: auth }))['items'];
  const create = (auth: Auth, input: Json, model = 'local/sketch') =>
    call('POST', '/api/v1/jobs/createTask', { headers: auth, body: { model, input } });
  const quote = (auth: Auth, input: Json) =>
    call('POST', '/api/v1/jobs/quote', { headers: auth, body: { model: 'local/sketch', input } });

  async function settled(auth: Auth, taskId: string): Promise<Json> {
    const until = Date.now() + 30_000;
    for (;;) {
      const task = dataOf(await call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth }));
      if (task['settled'] === true) return task;
      if (Date.now() > until) throw new Error(`task ${taskId} stayed ${JSON.stringify(task)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The first output of a succeeded task, downloaded. */
  async function output(task: Json): Promise<{ asset: Json; bytes: Buffer }> {
    const asset = (task['output'] as { assets: Json[] }).assets[0]!;
    const response = await fetch(asset['url'] as string);
    expect(response.status).toBe(200);
    return { asset, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  /** Red minus blue at the left and at the right edge of a picture's middle row. */
  async function leftAndRight(png: Buffer): Promise<[number, number]> {
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number) => {
      const o = (Math.floor(info.height / 2) * info.width + x) * info.channels;
      return data[o]! - data[o + 2]!;
    };
    return [at(4), at(info.width - 5)];
  }

  it('runs image-to-image from an own service:// file: the output is the input, fitted and tinted', async () => {
    const auth = await customer();
    const image = await committed(auth, picture, 'image/png');
    const reply = await create(auth, { prompt: 'the same, at dusk', width: 128, height: 64, image });
    expect(reply.status).toBe(202);
    const task = await settled(auth, dataOf(reply)['taskId'] as string);
    expect(task).toMatchObject({ state: 'succeeded', cost: '0.004', input: { image } });
    const { asset, bytes } = await output(task);
    expect(asset).toMatchObject({ mime: 'image/png', width: 128, height: 64 });
    const [left, right] = await leftAndRight(bytes);
    expect(left).toBeGreaterThan(100); // red
    expect(right).toBeLessThan(-100); // blue
    expect(await balance(auth)).toMatchObject({ available: '0.996', held: '0' });
  });

  it("answers another account's file exactly as a missing one: 400 naming the field, nothing held or made", async () => {
    const owner = await customer();
    const stranger = await customer();
    const theirs = await committed(owner, picture, 'image/png');
    const before = await balance(stranger);
    const missing = 'service://files/fil_01JD8ZK3W4C6T2M7Q9R5X1Y0AB';
    const replies = [
      await create(stranger, { prompt: 'x', image: theirs }),
      await create(stranger, { prompt: 'x', image: missing }),
      await quote(stranger, { prompt: 'x', image: theirs }),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({
        code: 400,
        msg: 'The field input.image does not name a ready file of this account. Upload and commit the file, then use the uri the commit answered.',
      });
      expect(reply.text).not.toContain(theirs.slice('service://files/'.length));
    }
    expect(replies[0]!.text.replace(/req_\w+/g, '')).toBe(replies[1]!.text.replace(/req_\w+/g, ''));
    expect(await balance(stranger)).toEqual(before);
    expect(await jobs(stranger)).toEqual([]);
    expect(await balance(owner)).toMatchObject({ available: '1', held: '0' });
  });

  it('refuses a file of another kind and a value that is no media URI, naming the field', async () => {
    const auth = await customer();
    const wav = Buffer.alloc(44 + 8000);
    wav.write('RIFF', 0, 'latin1');
    wav.writeUInt32LE(wav.length - 8, 4);
    wav.write('WAVEfmt ', 8, 'latin1');
    wav.writeUInt32LE(16, 16);
    wav.writeUInt16LE(1, 20); // PCM
    wav.writeUInt16LE(1, 22); // mono
    wav.writeUInt32LE(8000, 24);
    wav.writeUInt32LE(8000, 28);
    wav.writeUInt16LE(1, 32);
    wav.writeUInt16LE(8, 34);
    wav.write('data', 36, 'latin1');
    wav.writeUInt32LE(8000, 40);
    const sound = await committed(auth, wav, 'audio/wav');
    const before = await balance(auth);
    const wrongKind = await create(auth, { prompt: 'x', image: sound });
    expect([wrongKind.status, wrongKind.json['msg']]).toEqual([
      400,
      'The field input.image takes image files; the file it names is audio/wav.',
    ]);
    for (const image of [
      'http://203.0.113.7/a.png',
      'https://203.0.113.7:8443/a.png',
      'fil_abc',
      'service://x',
    ]) {
      const reply = await create(auth, { prompt: 'x', image });
      expect([reply.status, reply.json['msg']]).toEqual([
        400,
        'The field input.image must be the service:// URI of an uploaded file (service://files/fil_...) or an https:// URL.',
      ]);
    }
    expect(await balance(auth)).toEqual(before);
    expect(await jobs(auth)).toEqual([]);
  });

  it('fetches a public https URL through the SSRF guard (the allowed test source) and draws from it', async () => {
    const auth = await customer();
    const reply = await create(auth, {
      prompt: 'x',
      width: 64,
      height: 64,
      image: `https://${SOURCE}/halves.png`,
    });
    expect(reply.status).toBe(202);
    const task = await settled(auth, dataOf(reply)['taskId'] as string);
    expect(task).toMatchObject({ state: 'succeeded', cost: '0.004' });
    const [left, right] = await leftAndRight((await output(task)).bytes);
    expect(left).toBeGreaterThan(100);
    expect(right).toBeLessThan(-100);
  });

  it('fails a task whose URL leads to a private address with input_unavailable, uncharged', async () => {
    const auth = await customer();
    const reply = await create(auth, { prompt: 'x', image: `https://${INTERNAL}/halves.png` });
    expect(reply.status).toBe(202); // the syntax is fine: the runner's guard refuses the address
    const task = await settled(auth, dataOf(reply)['taskId'] as string);
    expect(task).toMatchObject({
      state: 'failed',
      errorCode: 'input_unavailable',
      errorMessage: expect.stringContaining('Nothing was charged.'),
      cost: '0',
    });
    expect(internalHits).toBe(0);
    expect(await balance(auth)).toMatchObject({ available: '1', held: '0', total: '1' });
  });

  it('makes local/reel videos of the requested resolution and frame rate, as the file measures', async () => {
    const auth = await customer();
    const reply = await create(
      auth,
      { prompt: 'waves', duration_seconds: 1, resolution: '640x360', fps: 24 },
      'local/reel',
    );
    const task = await settled(auth, dataOf(reply)['taskId'] as string);
    expect(task).toMatchObject({ state: 'succeeded', cost: '0.02' });
    const { asset, bytes } = await output(task);
    expect(asset).toMatchObject({ mime: 'video/x-msvideo', width: 640, height: 360, durationSeconds: 1 });
    expect(probeMedia(bytes)).toEqual({
      mime: 'video/x-msvideo',
      width: 640,
      height: 360,
      durationSeconds: 1,
      fps: 24,
    });
  });
});
