import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { PurgeTaskUseCase } from '@gen/tasks';
import { OpenApiCheck } from '@gen/testing';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

type Json = Record<string, unknown>;
type Auth = Record<string, string>;
interface Asset {
  key: string;
  mime: string;
  bytes: number;
  url?: string;
}

// Tasks run in the background of the app under test; on a loaded machine a poll may wait a while.
jest.setTimeout(90_000);
const dataOf = (reply: Reply) => reply.json['data'] as Json;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const UNKNOWN_TASK = 'job_01J0000000000000000000000Z';

describe('download tickets for task outputs (POST /api/v1/common/download-url)', () => {
  let app: Embedded;
  let openApi: OpenApiCheck;
  let storage: ObjectStorage;

  beforeAll(async () => {
    app = await startEmbedded({ LOG_LEVEL: 'silent', RATE_LIMIT_BURST: '2000' });
    openApi = new OpenApiCheck((await app.call('GET', '/openapi.json')).json);
    storage = app.app.get<ObjectStorage>(OBJECT_STORAGE);
  });
  afterAll(() => app.close());

  async function call(method: string, path: string, options: Parameters<Embedded['call']>[2] = {}) {
    const reply = await app.call(method, path, options);
    openApi.check(method, path, reply.status, reply.headers, reply.json);
    return reply;
  }
  const ticket = (auth: Auth, body: unknown, headers: Auth = {}) =>
    call('POST', '/api/v1/common/download-url', { headers: { ...auth, ...headers }, body });
  const record = async (auth: Auth, taskId: string) =>
    dataOf(await call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth }));

  /** A new account with wallet funds and one key. */
  async function customer(credit = '1') {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 'dl', credit })) as {
      accountId: string;
    };
    return { accountId, auth: await keyOf(accountId) };
  }
  async function keyOf(accountId: string): Promise<Auth> {
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    return { authorization: `Bearer ${apiKey}` };
  }

  async function created(auth: Auth, input: Json, headers: Auth = {}, model = 'local/sketch') {
    const reply = await call('POST', '/api/v1/jobs/createTask', {
      headers: { ...auth, ...headers },
      body: {
        model,
        input: model === 'local/sketch' ? { prompt: 'a fox', width: 64, height: 64, ...input } : input,
      },
    });
    expect(reply.status).toBe(202);
    return dataOf(reply)['taskId'] as string;
  }
  /** Polls recordInfo until `done` holds. */
  async function until(auth: Auth, taskId: string, done: (task: Json) => boolean): Promise<Json> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const task = await record(auth, taskId);
      if (done(task)) return task;
      if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${JSON.stringify(task)}`);
      await sleep(25);
    }
  }
  const settled = (auth: Auth, taskId: string) => until(auth, taskId, (task) => task['settled'] === true);
  const assetsOf = (task: Json) => (task['output'] as { assets: Asset[] }).assets;

  /** What a client can observe of a task besides its freshly signed URLs. */
  const unsigned = (task: Json) => ({
    ...task,
    ...(task['output']
      ? {
          output: {
            ...(task['output'] as Json),
            assets: assetsOf(task).map(({ key, mime, bytes }) => ({ key, mime, bytes })),
          },
        }
      : {}),
  });

  async function download(url: string): Promise<{ status: number; bytes: Buffer }> {
    const response = await fetch(url);
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  it('signs the first output for an empty or absent key, or the output named; the URL downloads its bytes', async () => {
    const { auth } = await customer();
    const taskId = await created(auth, { num_images: 2, seed: 7 });
    const task = await settled(auth, taskId);
    const [first, second] = assetsOf(task);
    expect([first!.key, second!.key]).toEqual([`outputs/${taskId}/0.png`, `outputs/${taskId}/1.png`]);
    const fromRecord = await download(first!.url!);
    expect(fromRecord.status).toBe(200);

    for (const body of [{ taskId }, { taskId, key: '' }]) {
      const before = Date.now();
      const reply = await ticket(auth, body);
      const after = Date.now();
      expect([reply.status, reply.json['code'], reply.headers.get('cache-control')]).toEqual([
        200,
        200,
        'no-store',
      ]);
      const data = dataOf(reply) as { url: string; expiresAt: string; key: string };
      expect(Object.keys(data).sort()).toEqual(['expiresAt', 'key', 'url']);
      expect(data.key).toBe(first!.key);
      // Fifteen minutes from the moment the service signed, which lies between `before` and `after` (the signer
      // rounds down to a whole second: a request crossing a second boundary ends up to its duration later).
      const lifetime = Date.parse(data.expiresAt) - before;
      expect(lifetime).toBeGreaterThan(15 * 60_000 - 2_000);
      expect(lifetime).toBeLessThanOrEqual(15 * 60_000 + (after - before));
      const fetched = await download(data.url);
      expect(fetched.status).toBe(200);
      expect(fetched.bytes.length).toBe(first!.bytes);
      expect(fetched.bytes.subarray(0, 8)).toEqual(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      );
      expect(sha256(fetched.bytes)).toBe(sha256(fromRecord.bytes));
    }

    const named = dataOf(await ticket(auth, { taskId, key: second!.key })) as { url: string; key: string };
    expect(named.key).toBe(second!.key);
    const secondBytes = await download(named.url);
    expect(secondBytes.status).toBe(200);
    expect(secondBytes.bytes.length).toBe(second!.bytes);
    expect(sha256(secondBytes.bytes)).toBe(sha256((await download(second!.url!)).bytes));
  });

  it('a tampered URL is refused by the storage: another key, another expiry, another signature', async () => {
    const { auth } = await customer();
    const taskId = await created(auth, { num_images: 2 });
    await settled(auth, taskId);
    const { url } = dataOf(await ticket(auth, { taskId })) as { url: string };
    expect((await download(url)).status).toBe(200);
    const signed = new URL(url);
    const otherKey = new URL(url);
    otherKey.pathname = signed.pathname.replace(/0\.png$/, '1.png');
    const longer = new URL(url);
    longer.searchParams.set('X-Expires', String(Number(signed.searchParams.get('X-Expires')) + 3600));
    const forged = new URL(url);
    const signature = signed.searchParams.get('X-Signature')!;
    forged.searchParams.set('X-Signature', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`);
    for (const tampered of [otherKey, longer, forged]) {
      const refused = await download(tampered.toString());
      expect([tampered.toString(), refused.status]).toEqual([tampered.toString(), 403]);
    }
  });

  it('only the key that created the task: another key of the account, another account and unknown tasks are 404 alike', async () => {
    const { accountId, auth } = await customer();
    const taskId = await created(auth, {});
    await settled(auth, taskId);
    const sibling = await keyOf(accountId);
    const stranger = (await customer()).auth;
    // Unknown, and (the spec takes any text as a task id) not shaped like ours: the same 404.
    for (const id of [UNKNOWN_TASK, 'job_nothing', 'not a task id']) {
      const unknown = await ticket(auth, { taskId: id });
      expect([id, unknown.status, unknown.json['code'], unknown.json['msg'], unknown.json['data']]).toEqual([
        id,
        404,
        404,
        'Task not found.',
        undefined,
      ]);
    }
    for (const other of [sibling, stranger]) {
      for (const body of [{ taskId }, { taskId, key: `outputs/${taskId}/0.png` }]) {
        const refused = await ticket(other, body);
        expect([refused.status, refused.json['code'], refused.json['msg'], refused.json['data']]).toEqual([
          404,
          404,
          'Task not found.',
          undefined,
        ]);
      }
    }
    // In the caller's language, like every error.
    const german = await ticket(sibling, { taskId }, { 'accept-language': 'de' });
    expect([german.status, german.headers.get('content-language'), german.json['msg']]).toEqual([
      404,
      'de',
      'Aufgabe nicht gefunden.',
    ]);
  });

  it('a key that is not an output of the task is 404, and a refusal changes nothing', async () => {
    const { auth } = await customer();
    const taskId = await created(auth, {});
    const otherTask = await created(auth, {});
    await settled(auth, otherTask);
    const before = await settled(auth, taskId);
    const balance = dataOf(await call('GET', '/api/v1/chat/credit', { headers: auth }));
    const noSuchOutput =
      'This task has no output with that key. The keys are in output.assets of recordInfo.';
    for (const key of [`outputs/${taskId}/1.png`, `outputs/${otherTask}/0.png`, 'files/x', '0.png', ' ']) {
      const refused = await ticket(auth, { taskId, key });
      expect([key, refused.status, refused.json['code'], refused.json['msg']]).toEqual([
        key,
        404,
        404,
        noSuchOutput,
      ]);
    }
    // Malformed requests: 400 naming the field, before any lookup.
    const malformed: [unknown, string][] = [
      [{}, 'Missing required field taskId.'],
      [{ taskId: '' }, 'Invalid value for field taskId.'],
      [{ taskId: 'j'.repeat(257) }, 'Invalid value for field taskId.'],
      [{ taskId, key: 7 }, 'Invalid value for field key.'],
      [{ taskId, key: 'k'.repeat(1025) }, 'Invalid value for field key.'],
      [{ taskId, extra: true }, 'Unknown field extra.'],
    ];
    for (const [body, msg] of malformed) {
      const refused = await ticket(auth, body);
      expect([refused.status, refused.json['code'], refused.json['msg']]).toEqual([400, 400, msg]);
    }
    const anonymous = await ticket({}, { taskId });
    expect([anonymous.status, anonymous.json['code']]).toEqual([401, 401]);

    expect(unsigned(await record(auth, taskId))).toEqual(unsigned(before));
    expect(dataOf(await call('GET', '/api/v1/chat/credit', { headers: auth }))).toEqual(balance);
    expect(await storage.head(`outputs/${taskId}/0.png`)).not.toBeNull();
  });

  it('409 while the task is in flight and for a task that failed; an output not stored 404, one pending 409', async () => {
    const { auth } = await customer();
    const inFlight = await created(auth, { delay_ms: 3000 });
    const busy = await ticket(auth, { taskId: inFlight });
    expect([busy.status, busy.json['code']]).toEqual([409, 409]);
    expect(busy.json['msg']).toMatch(
      /^The task is still (queued|running): its outputs can be downloaded once it has succeeded\.$/,
    );

    const failed = await created(auth, { simulate: 'upstream_failed' });
    await settled(auth, failed);
    const refused = await ticket(auth, { taskId: failed, key: '' });
    expect([refused.status, refused.json['code'], refused.json['msg']]).toEqual([
      409,
      409,
      'The task ended failed: it has no outputs to download.',
    ]);

    const unavailable = await created(auth, { simulate: 'asset_unavailable' });
    await settled(auth, unavailable);
    const notStored = await ticket(auth, { taskId: unavailable });
    expect([notStored.status, notStored.json['code'], notStored.json['msg']]).toEqual([
      404,
      404,
      'This output could not be stored: there is no file to download.',
    ]);
    const pending = await created(auth, { simulate: 'asset_pending' });
    await settled(auth, pending);
    const notReady = await ticket(auth, { taskId: pending });
    expect([notReady.status, notReady.json['code'], notReady.json['msg']]).toEqual([
      409,
      409,
      'This output is not ready yet. Ask for a download URL again later.',
    ]);

    // A text task succeeds without output files.
    const text = await created(auth, { messages: [{ role: 'user', content: 'hi' }] }, {}, 'local/echo/chat');
    await settled(auth, text);
    const noFiles = await ticket(auth, { taskId: text });
    expect([noFiles.status, noFiles.json['code'], noFiles.json['msg']]).toEqual([
      404,
      404,
      'This task has no output files.',
    ]);
    // The task in flight, once finished, has its ticket.
    await settled(auth, inFlight);
    expect((await ticket(auth, { taskId: inFlight })).status).toBe(200);
  });

  it('a purged task is 404, and a URL signed before the purge no longer downloads', async () => {
    const { auth } = await customer();
    const taskId = await created(auth, {});
    await settled(auth, taskId);
    const { url } = dataOf(await ticket(auth, { taskId })) as { url: string };
    expect((await call('POST', '/api/v1/jobs/purge', { headers: auth, body: { taskId } })).status).toBe(200);
    for (const body of [{ taskId }, { taskId, key: `outputs/${taskId}/0.png` }]) {
      const gone = await ticket(auth, body);
      expect([gone.status, gone.json['code'], gone.json['msg']]).toEqual([
        404,
        404,
        'The outputs of this task no longer exist: it was purged, or its retention ended.',
      ]);
    }
    expect((await download(url)).status).toBe(404);
  });

  it('a URL never outlives retention: it expires with it, and then the task is 404', async () => {
    const { auth } = await customer();
    const taskId = await created(auth, {}, { 'x-service-retention': '4' });
    const task = await until(auth, taskId, (t) => t['state'] === 'succeeded');
    const retainedUntil = Date.parse(task['completedAt'] as string) + 4000;
    const reply = await ticket(auth, { taskId });
    expect(reply.status).toBe(200);
    const { url, expiresAt } = dataOf(reply) as { url: string; expiresAt: string };
    expect(Date.parse(expiresAt)).toBeLessThanOrEqual(retainedUntil);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    expect((await download(url)).status).toBe(200);
    await sleep(Math.max(0, retainedUntil - Date.now()) + 1100);
    expect((await download(url)).status).toBe(403);
    const gone = await ticket(auth, { taskId });
    expect([gone.status, gone.json['code']]).toEqual([404, 404]);
  });
});

describe('retention: purging a task never deletes a file the asset library keeps', () => {
  let app: Embedded;

  beforeAll(async () => {
    app = await startEmbedded({ LOG_LEVEL: 'silent', RATE_LIMIT_BURST: '2000' });
  });
  afterAll(() => app.close());

  it('a file used as task input and kept by an asset and a character survives the purge and the retention sweep', async () => {
    const auth = { authorization: `Bearer ${app.boot.apiKey}` };
    const storage = app.app.get<ObjectStorage>(OBJECT_STORAGE);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f80' } })
      .png()
      .toBuffer();
    const upload = await app.call('POST', '/api/v1/common/upload-url', {
      headers: auth,
      body: { fileName: 'kept.png', contentType: 'image/png', bytes: png.length },
    });
    const { fileId, uploadUrl } = dataOf(upload) as { fileId: string; uploadUrl: string };
    expect(
      (await fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: png })).status,
    ).toBe(200);
    const committed = await app.call('POST', `/api/v1/files/${fileId}/commit`, { headers: auth });
    expect(committed.status).toBe(200);
    const file = dataOf(committed) as { uri: string; sha256: string };
    expect(file.sha256).toBe(sha256(png));
    const saved = await app.call('POST', '/api/v1/assets', {
      headers: { ...auth, 'idempotency-key': 'keep-1' },
      body: { uri: file.uri, name: 'kept' },
    });
    expect(saved.status).toBe(200);
    const { assetId } = dataOf(saved) as { assetId: string };
    const { entityId } = await app.admin('POST', `/admin/v1/accounts/${app.boot.accountId}/asset-entities`, {
      name: 'Kept',
      images: [file.uri],
    });

    // One task purged by its key, one purged by the retention sweeper; both used the file as input.
    const create = async (headers: Auth) => {
      const reply = await app.call('POST', '/api/v1/jobs/createTask', {
        headers: { ...auth, ...headers },
        body: {
          model: 'local/sketch',
          input: { prompt: 'again', image: file.uri, width: 64, height: 64 },
        },
      });
      expect(reply.status).toBe(202);
      return dataOf(reply)['taskId'] as string;
    };
    const purged = await create({});
    const swept = await create({ 'x-service-retention': '1' });
    for (const taskId of [purged, swept]) {
      for (let i = 0; ; i += 1) {
        const task = dataOf(
          await app.call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth }),
        );
        if (task['settled'] === true) break;
        if (i > 1200) throw new Error(`${taskId} never settled`);
        await sleep(25);
      }
    }
    expect(
      (await app.call('POST', '/api/v1/jobs/purge', { headers: auth, body: { taskId: purged } })).status,
    ).toBe(200);
    await sleep(1100);
    expect(await app.app.get(PurgeTaskUseCase).purgeExpired()).toBeGreaterThanOrEqual(1);
    for (const taskId of [purged, swept]) {
      expect(await storage.head(`outputs/${taskId}/0.png`)).toBeNull();
    }

    // The file is untouched: its bytes, its record, the asset and the character that keep it.
    expect(await storage.head(`files/${app.boot.accountId}/${fileId}`)).toMatchObject({ bytes: png.length });
    const again = await app.call('POST', `/api/v1/files/${fileId}/commit`, { headers: auth });
    expect([again.status, dataOf(again)]).toEqual([200, dataOf(committed)]);
    const asset = await app.call('GET', `/api/v1/assets/${assetId}`, { headers: auth });
    expect(asset.status).toBe(200);
    const preview = await fetch(dataOf(asset)['previewUrl'] as string);
    expect(preview.status).toBe(200);
    expect(sha256(Buffer.from(await preview.arrayBuffer()))).toBe(sha256(png));
    const entity = await app.call('GET', `/api/v1/assets/entities/${entityId as string}`, { headers: auth });
    const image = (dataOf(entity)['images'] as { uri: string; previewUrl: string }[])[0]!;
    expect(image.uri).toBe(file.uri);
    expect((await fetch(image.previewUrl)).status).toBe(200);
  });
});
