import { HOLDS_PORT, IdPrefix, type HoldsPort } from '@gen/contracts';
import { newId } from '@gen/core';
import { DATABASE, type Database } from '@gen/persistence';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { PurgeTaskUseCase } from '@gen/tasks';
import { OpenApiCheck } from '@gen/testing';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

type Json = Record<string, unknown>;

// Tasks run in the background of the app under test; on a loaded machine a poll may wait a while.
jest.setTimeout(90_000);
const dataOf = (reply: Reply) => reply.json['data'] as Json;
const sketch = (extra: Json = {}) => ({
  model: 'local/sketch',
  input: { prompt: 'a red fox', width: 64, height: 64, ...extra },
});

describe('the native task flow in embedded mode: quote, createTask, the runner, recordInfo, settlement', () => {
  let app: Embedded;
  let openApi: OpenApiCheck;

  beforeAll(async () => {
    // Delayed tasks occupy runner slots, as a real model's generation time would: give the suite room.
    app = await startEmbedded({
      LOG_LEVEL: 'silent',
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '203.0.113.0/24',
      RUNNER_CONCURRENCY: '200',
      RATE_LIMIT_BURST: '2000',
    });
    openApi = new OpenApiCheck((await app.call('GET', '/openapi.json')).json);
  });
  afterAll(() => app.close());

  async function call(method: string, path: string, options: Parameters<Embedded['call']>[2] = {}) {
    const reply = await app.call(method, path, options);
    openApi.check(method, path, reply.status, reply.headers, reply.json);
    return reply;
  }

  /** A new account with `credit` of wallet funds and one key; returns its auth header and ids. */
  async function customer(credit: string, dailyCap = '100') {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 'c', credit })) as {
      accountId: string;
    };
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, { dailyCap })) as {
      apiKey: string;
    };
    return { accountId, auth: { authorization: `Bearer ${apiKey}` } };
  }

  async function balance(auth: Record<string, string>) {
    return dataOf(await call('GET', '/api/v1/chat/credit', { headers: auth })) as {
      available: string;
      held: string;
      total: string;
    };
  }

  async function record(auth: Record<string, string>, taskId: string, headers: Record<string, string> = {}) {
    return call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: { ...auth, ...headers } });
  }

  /** Polls recordInfo until `done` holds (30 s at most). */
  async function waitFor(auth: Record<string, string>, taskId: string, done: (task: Json) => boolean) {
    const until = Date.now() + 30_000;
    for (;;) {
      const reply = await record(auth, taskId);
      expect(reply.status).toBe(200);
      const task = dataOf(reply);
      if (done(task)) return task;
      if (Date.now() > until) throw new Error(`task ${taskId} stayed ${JSON.stringify(task)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const create = (auth: Record<string, string>, body: unknown, headers: Record<string, string> = {}) =>
    call('POST', '/api/v1/jobs/createTask', { headers: { ...auth, ...headers }, body });

  it('accepts a task with 202 and its headers, runs it, stores a real PNG, and settles the exact price', async () => {
    const { auth } = await customer('1');
    const reply = await create(auth, sketch());
    expect(reply.status).toBe(202);
    expect(reply.json['code']).toBe(200);
    const accepted = dataOf(reply);
    expect(accepted).toEqual({
      taskId: expect.stringMatching(/^job_/),
      state: 'queued',
      estimatedCost: '0.004',
      deadlineAt: expect.any(String),
    });
    const taskId = accepted['taskId'] as string;
    expect(reply.headers.get('location')).toBe(`/api/v1/jobs/recordInfo?taskId=${taskId}`);
    expect(reply.headers.get('retry-after')).toBe('1');
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(reply.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(Date.parse(accepted['deadlineAt'] as string)).toBeGreaterThan(Date.now());

    const task = await waitFor(auth, taskId, (t) => t['settled'] === true);
    expect(task).toMatchObject({
      taskId,
      model: 'local/sketch',
      state: 'succeeded',
      cost: '0.004',
      settled: true,
      estimatedCost: '0.004',
      input: { prompt: 'a red fox', width: 64, height: 64, num_images: 1, simulate: 'success', delay_ms: 0 },
    });
    expect(task['completedAt']).toEqual(expect.any(String));
    const [asset] = (task['output'] as { assets: Json[] }).assets;
    expect(asset).toMatchObject({ mime: 'image/png', width: 64, height: 64, key: `outputs/${taskId}/0.png` });
    const png = await fetch(asset!['url'] as string);
    expect(png.status).toBe(200);
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(asset!['bytes']).toBe(bytes.length);
    expect(Date.parse(asset!['expiresAt'] as string)).toBeGreaterThan(Date.now());
    expect(await balance(auth)).toMatchObject({ available: '0.996', held: '0', total: '0.996' });
  });

  it('holds the estimate while a task is in flight', async () => {
    const { auth } = await customer('1');
    const reply = await create(auth, sketch({ delay_ms: 3000, num_images: 2 }));
    expect(dataOf(reply)['estimatedCost']).toBe('0.008');
    expect(await balance(auth)).toMatchObject({ available: '0.992', held: '0.008', total: '1' });
    const taskId = dataOf(reply)['taskId'] as string;
    const running = await waitFor(auth, taskId, (t) => t['state'] !== 'queued');
    expect(['running', 'succeeded']).toContain(running['state']);
    await waitFor(auth, taskId, (t) => t['settled'] === true);
    expect(await balance(auth)).toMatchObject({ available: '0.992', held: '0', total: '0.992' });
  });

  it('a failed task costs 0, says why in the negotiated language, and gives the hold back', async () => {
    const { auth } = await customer('1');
    const taskId = dataOf(await create(auth, sketch({ simulate: 'upstream_failed' })))['taskId'] as string;
    await waitFor(auth, taskId, (t) => t['settled'] === true);
    const german = dataOf(await record(auth, taskId, { 'accept-language': 'de-DE' }));
    expect(german).toMatchObject({ state: 'failed', errorCode: 'upstream_failed', cost: '0', settled: true });
    expect(german['output']).toBeUndefined();
    const english = dataOf(await record(auth, taskId));
    expect(english['errorCode']).toBe('upstream_failed');
    expect(english['errorMessage']).not.toBe(german['errorMessage']);
    expect(german['errorMessage']).toContain('Modellanbieter');
    expect(await balance(auth)).toMatchObject({ available: '1', held: '0' });
  });

  it('content_rejected fails uncharged; asset_unavailable succeeds at cost 0; asset_pending is charged', async () => {
    const { auth } = await customer('1');
    const ids = await Promise.all(
      ['content_rejected', 'asset_unavailable', 'asset_pending'].map(
        async (simulate) => dataOf(await create(auth, sketch({ simulate })))['taskId'] as string,
      ),
    );
    const [rejected, unavailable, pending] = await Promise.all(
      ids.map((id) => waitFor(auth, id, (t) => t['settled'] === true)),
    );
    expect(rejected).toMatchObject({ state: 'failed', errorCode: 'content_rejected', cost: '0' });
    expect(unavailable).toMatchObject({ state: 'succeeded', cost: '0' });
    const [gone] = (unavailable!['output'] as { assets: Json[] }).assets;
    expect(gone).toMatchObject({ unavailable: true });
    expect(gone!['url']).toBeUndefined();
    expect(pending).toMatchObject({ state: 'succeeded', cost: '0.004' });
    const [later] = (pending!['output'] as { assets: Json[] }).assets;
    expect(later).toMatchObject({ pending: true });
    expect(later!['url']).toBeUndefined();
    expect(await balance(auth)).toMatchObject({ available: '0.996', held: '0' });
  });

  it('produces real WAV and video files with the models of CONTRACT.md', async () => {
    const { auth } = await customer('1');
    const tone = dataOf(await create(auth, { model: 'local/tone', input: { text: 'Hello there' } }));
    const reel = dataOf(
      await create(auth, { model: 'local/reel', input: { prompt: 'waves', duration_seconds: 1 } }),
    );
    expect(reel['estimatedCost']).toBe('0.02');
    const [toneTask, reelTask] = await Promise.all(
      [tone, reel].map((t) => waitFor(auth, t['taskId'] as string, (x) => x['settled'] === true)),
    );
    const wav = (toneTask!['output'] as { assets: Json[] }).assets[0]!;
    expect(wav['mime']).toBe('audio/wav');
    const wavBytes = Buffer.from(await (await fetch(wav['url'] as string)).arrayBuffer());
    expect(wavBytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(wavBytes.subarray(8, 12).toString('latin1')).toBe('WAVE');
    const avi = (reelTask!['output'] as { assets: Json[] }).assets[0]!;
    const aviBytes = Buffer.from(await (await fetch(avi['url'] as string)).arrayBuffer());
    expect(aviBytes.subarray(8, 12).toString('latin1')).toBe('AVI ');
    expect(reelTask!['cost']).toBe('0.02');
    expect(toneTask!['cost']).toBe(toneTask!['estimatedCost']);
  });

  it('refuses bad requests with 400 and changes nothing', async () => {
    const { auth } = await customer('1');
    const before = await balance(auth);
    const cases: [unknown, string][] = [
      [sketch({ colour: 'red' }), 'Unknown field'],
      [{ model: 'local/sketch', input: { width: 64 } }, 'prompt'],
      [{ model: 'local/sketch', input: {}, extra: 1 }, 'extra'],
      [{ ...sketch(), callBackUrl: 'http://127.0.0.1/hook' }, 'Invalid callback URL'],
      [{ ...sketch(), callBackUrl: 'https://203.0.113.7:8443/hook' }, 'Invalid callback URL'],
      [{ ...sketch(), callBackUrl: 'https://user:pw@203.0.113.7/hook' }, 'Invalid callback URL'],
      [{ ...sketch(), callBackUrl: 42 }, 'Invalid callback URL'],
      [{ ...sketch(), quoteId: 'quo_x.y' }, 'expectedCost'],
      [{ ...sketch(), quoteId: 'quo_x', expectedCost: '0.004' }, 'quoteId'],
    ];
    for (const [body, message] of cases) {
      const reply = await create(auth, body);
      expect([reply.status, reply.json['code']]).toEqual([400, 400]);
      expect(reply.json['msg']).toContain(message);
      expect(reply.json['data']).toBeUndefined();
      if (message === 'Invalid callback URL') expect(reply.json['msg']).toBe('Invalid callback URL');
    }
    const retention = await create(auth, sketch(), { 'x-service-retention': '-5' });
    expect(retention.status).toBe(400);
    const unknownModel = await create(auth, { model: 'local/nothing', input: {} });
    expect([unknownModel.status, unknownModel.json['code']]).toEqual([404, 404]);
    const textModel = await create(auth, {
      model: 'local/echo/chat',
      input: { messages: [{ role: 'user', content: 'hi' }], max_tokens: 100_000 },
    });
    expect([textModel.status, textModel.json['code']]).toEqual([400, 400]);
    expect(await balance(auth)).toEqual(before);
  });

  it('accepts a public callback URL and an allowed private one', async () => {
    const { auth } = await customer('1');
    const reply = await create(auth, { ...sketch(), callBackUrl: 'https://203.0.113.7/hook' });
    expect(reply.status).toBe(202);
  });

  it('402: insufficient funds (40201) and the key daily cap (40202) hold nothing', async () => {
    const poor = await customer('0.003');
    const refused = await create(poor.auth, sketch());
    expect([refused.status, refused.json['code']]).toEqual([402, 40201]);
    expect(await balance(poor.auth)).toMatchObject({ available: '0.003', held: '0' });

    const capped = await customer('1', '0.006');
    expect((await create(capped.auth, sketch())).status).toBe(202);
    const over = await create(capped.auth, sketch());
    expect([over.status, over.json['code']]).toEqual([402, 40202]);
    expect(await balance(capped.auth)).toMatchObject({ available: '0.996' });
  });

  it('100 concurrent tasks against funds for 60 accept exactly 60 and never go negative', async () => {
    const { auth } = await customer('0.24');
    const replies = await Promise.all(
      // Long enough that none finishes (and is charged) before the balance is read, however slow the machine.
      Array.from({ length: 100 }, () => create(auth, sketch({ delay_ms: 60_000 }))),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(60);
    expect(replies.filter((r) => r.status === 402 && r.json['code'] === 40201)).toHaveLength(40);
    expect(await balance(auth)).toMatchObject({ available: '0', held: '0.24', total: '0.24' });
  });

  describe('Idempotency-Key', () => {
    it('replays the original task in its current state without a second hold', async () => {
      const { auth } = await customer('1');
      const first = await create(auth, sketch(), { 'idempotency-key': 'order-1' });
      const taskId = dataOf(first)['taskId'] as string;
      await waitFor(auth, taskId, (t) => t['settled'] === true);
      const again = await create(auth, sketch(), { 'idempotency-key': 'order-1' });
      expect(again.status).toBe(202);
      expect(dataOf(again)).toMatchObject({ taskId, state: 'succeeded' });
      expect(await balance(auth)).toMatchObject({ available: '0.996', held: '0' });
    });

    it('409 for other semantics, and 409 without the task id from a sibling API key', async () => {
      const { accountId, auth } = await customer('1');
      const first = await create(auth, sketch({ delay_ms: 60_000 }), { 'idempotency-key': 'k-2' });
      const taskId = dataOf(first)['taskId'] as string;
      const changed = await create(auth, sketch({ delay_ms: 60_000, width: 128 }), {
        'idempotency-key': 'k-2',
      });
      expect([changed.status, changed.json['code']]).toEqual([409, 409]);
      const callback = await create(
        auth,
        { ...sketch({ delay_ms: 60_000 }), callBackUrl: 'https://203.0.113.7/x' },
        { 'idempotency-key': 'k-2' },
      );
      expect(callback.status).toBe(409);
      const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
        apiKey: string;
      };
      const sibling = await create({ authorization: `Bearer ${apiKey}` }, sketch({ delay_ms: 60_000 }), {
        'idempotency-key': 'k-2',
      });
      expect([sibling.status, sibling.json['code']]).toEqual([409, 409]);
      expect(sibling.text).not.toContain(taskId);
      // The first task is still held, and nothing else is.
      expect(await balance(auth)).toMatchObject({ available: '0.996', held: '0.004' });
    });

    it('50 concurrent calls with one key give one task and one hold', async () => {
      const { auth } = await customer('1');
      const replies = await Promise.all(
        Array.from({ length: 50 }, () =>
          create(auth, sketch({ delay_ms: 60_000 }), { 'idempotency-key': 'burst' }),
        ),
      );
      const ids = new Set(replies.map((r) => dataOf(r)?.['taskId']));
      expect(replies.map((r) => r.status)).toEqual(Array(50).fill(202));
      expect(ids.size).toBe(1);
      expect(await balance(auth)).toMatchObject({ available: '0.996', held: '0.004' });
    });

    it('a key whose holder died before writing its task: a retry finishes that task, holding funds once', async () => {
      const { accountId, auth } = await customer('1');
      const body = sketch({ delay_ms: 60_000 });
      // A call that went through gives this body's request hash and the key id.
      expect((await create(auth, body, { 'idempotency-key': 'seed' })).status).toBe(202);
      const db = app.app.get<Database>(DATABASE);
      const [seed] = await db.query<{ key_id: string; fingerprint: string }>(
        `SELECT "key_id", "fingerprint" FROM "tasks"."idempotency_records" WHERE "account_id" = $1 AND "idem_key" = 'seed'`,
        [accountId],
      );
      // Two calls whose process died (kill -9, the database lost): one after claiming its key, one after
      // claiming it and holding the funds. Their tasks were never written.
      const orphans = { claimed: newId(IdPrefix.task), held: newId(IdPrefix.task) };
      for (const [key, taskId] of Object.entries(orphans)) {
        await db.query(
          `INSERT INTO "tasks"."idempotency_records"
             ("account_id", "scope", "idem_key", "key_id", "fingerprint", "task_id", "created_at")
           VALUES ($1, 'create', $2, $3, $4, $5, now())`,
          [accountId, key, seed!.key_id, seed!.fingerprint, taskId],
        );
      }
      await app.app.get<HoldsPort>(HOLDS_PORT).reserve({
        holdId: orphans.held,
        accountId,
        keyId: seed!.key_id,
        model: 'local/sketch',
        amount: '0.004',
        dailyCap: '100',
      });
      expect(await balance(auth)).toMatchObject({ available: '0.992', held: '0.008' });
      // Retries of both keys (two at once for one of them) wait for the holder, then finish its creation under
      // its task id: one task per key, and the orphan's hold is the task's.
      const replies = await Promise.all([
        create(auth, body, { 'idempotency-key': 'claimed' }),
        create(auth, body, { 'idempotency-key': 'claimed' }),
        create(auth, body, { 'idempotency-key': 'held' }),
      ]);
      expect(replies.map((r) => [r.status, dataOf(r)['taskId']])).toEqual([
        [202, orphans.claimed],
        [202, orphans.claimed],
        [202, orphans.held],
      ]);
      expect(await balance(auth)).toMatchObject({ available: '0.988', held: '0.012' });
      const again = await create(auth, body, { 'idempotency-key': 'claimed' });
      expect([again.status, dataOf(again)['taskId']]).toEqual([202, orphans.claimed]);
    });

    it('a refused request leaves the key free for a corrected one', async () => {
      const poor = await customer('0.001');
      expect((await create(poor.auth, sketch(), { 'idempotency-key': 'retry-me' })).status).toBe(402);
      await app.admin('POST', `/admin/v1/accounts/${poor.accountId}/credits`, { amount: '1' });
      expect((await create(poor.auth, sketch(), { 'idempotency-key': 'retry-me' })).status).toBe(202);
    });
  });

  describe('quotes', () => {
    it('quotes without creating or holding anything, and createTask honours the quote', async () => {
      const { auth } = await customer('1');
      const reply = await call('POST', '/api/v1/jobs/quote', {
        headers: auth,
        body: sketch({ num_images: 3 }),
      });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('cache-control')).toBe('no-store');
      const quote = dataOf(reply);
      expect(quote).toMatchObject({
        quoteId: expect.stringMatching(/^quo_/),
        price: '0.012',
        maxCharge: '0.012',
      });
      expect(Date.parse(quote['expiresAt'] as string) - Date.now()).toBeGreaterThan(4 * 60_000);
      expect(await balance(auth)).toMatchObject({ available: '1', held: '0' });

      const body = { ...sketch({ num_images: 3 }), quoteId: quote['quoteId'], expectedCost: '0.012' };
      expect((await create(auth, body)).status).toBe(202);
      const changedPrice = await create(auth, { ...body, expectedCost: '0.01' });
      expect([changedPrice.status, changedPrice.json['code']]).toEqual([409, 40901]);
      const changedRequest = await create(auth, { ...body, input: { ...body.input, num_images: 2 } });
      expect(changedRequest.json['code']).toBe(40901);
      const forged = await create(auth, { ...body, quoteId: `${quote['quoteId'] as string}x` });
      expect(forged.json['code']).toBe(40901);
      const other = await customer('1');
      const otherKey = await create(other.auth, body);
      expect(otherKey.json['code']).toBe(40901);
      expect(await balance(other.auth)).toMatchObject({ available: '1', held: '0' });
    });

    it('quote checks funds like createTask', async () => {
      const { auth } = await customer('0.001');
      const reply = await call('POST', '/api/v1/jobs/quote', { headers: auth, body: sketch() });
      expect([reply.status, reply.json['code']]).toEqual([402, 40201]);
    });
  });

  describe('recordInfo visibility', () => {
    it('404 alike for unknown tasks (any text), other keys and other accounts; 400 without taskId', async () => {
      const { accountId, auth } = await customer('1');
      const taskId = dataOf(await create(auth, sketch()))['taskId'] as string;
      const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
        apiKey: string;
      };
      const sibling = await record({ authorization: `Bearer ${apiKey}` }, taskId);
      const stranger = await record((await customer('1')).auth, taskId);
      const unknown = await record(auth, 'job_01J0000000000000000000000Z');
      for (const reply of [sibling, stranger, unknown]) {
        expect([reply.status, reply.json['code']]).toEqual([404, 404]);
      }
      expect(sibling.json['msg']).toBe(unknown.json['msg']);
      const missing = await call('GET', '/api/v1/jobs/recordInfo', { headers: auth });
      expect(missing.status).toBe(400);
      const repeated = await call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}&taskId=${taskId}`, {
        headers: auth,
      });
      expect(repeated.status).toBe(400);
      // The spec takes any string of length at least 1: one not shaped like ours is a task that does not
      // exist, the same 404; empty or over 256 characters cannot be an id at all.
      for (const id of [
        'job_doesnotexist',
        'job_01JUNKJUNKJUNKJUNKJUNKJUNK',
        'x',
        'ünïcødé 🦊',
        'j'.repeat(256),
      ]) {
        const reply = await record(auth, encodeURIComponent(id));
        expect([id, reply.status, reply.json['code'], reply.json['msg']]).toEqual([
          id,
          404,
          404,
          unknown.json['msg'],
        ]);
      }
      const empty = await call('GET', '/api/v1/jobs/recordInfo?taskId=', { headers: auth });
      expect([empty.status, empty.json['msg']]).toEqual([400, 'The query parameter taskId is empty.']);
      const long = await record(auth, 'j'.repeat(257));
      expect([long.status, long.json['msg']]).toEqual([400, 'Invalid value for field taskId.']);
    });
  });
});

describe('deadlines', () => {
  let app: Embedded;
  beforeAll(async () => {
    app = await startEmbedded({ LOG_LEVEL: 'silent', TASK_DEADLINE_SECONDS: '1' });
  });
  afterAll(() => app.close());

  it('a task past deadlineAt expires, costs 0, releases its hold, and ignores a late result', async () => {
    const auth = { authorization: `Bearer ${app.boot.apiKey}` };
    const created = await app.call('POST', '/api/v1/jobs/createTask', {
      headers: auth,
      body: { model: 'local/sketch', input: { prompt: 'slow', delay_ms: 3000, width: 64, height: 64 } },
    });
    const taskId = (created.json['data'] as Json)['taskId'] as string;
    const until = Date.now() + 8000;
    let task: Json = {};
    while (Date.now() < until) {
      task = (await app.call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth })).json[
        'data'
      ] as Json;
      if (task['settled'] === true) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(task).toMatchObject({ state: 'expired', cost: '0', settled: true });
    await new Promise((r) => setTimeout(r, 2500)); // the runner finishes after the deadline
    const after = (await app.call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth })).json[
      'data'
    ] as Json;
    expect(after['state']).toBe('expired');
    const balance = (await app.call('GET', '/api/v1/chat/credit', { headers: auth })).json['data'] as Json;
    expect(balance).toMatchObject({ available: '25', held: '0' });
  });
});

describe('retry, purge, history and usage', () => {
  let app: Embedded;
  beforeAll(async () => {
    app = await startEmbedded({ LOG_LEVEL: 'silent', RATE_LIMIT_BURST: '2000' });
  });
  afterAll(() => app.close());

  async function customer(credit = '1') {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 'h', credit })) as {
      accountId: string;
    };
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    return { accountId, auth: { authorization: `Bearer ${apiKey}` } };
  }
  const post = (
    auth: Record<string, string>,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ) => app.call('POST', path, { headers: { ...auth, ...headers }, body });
  const get = (auth: Record<string, string>, path: string) => app.call('GET', path, { headers: auth });
  async function settled(auth: Record<string, string>, taskId: string): Promise<Json> {
    for (let i = 0; i < 400; i += 1) {
      const task = dataOf(await get(auth, `/api/v1/jobs/recordInfo?taskId=${taskId}`));
      if (task['settled'] === true) return task;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${taskId} never settled`);
  }
  const created = async (auth: Record<string, string>, extra: Json = {}) =>
    dataOf(await post(auth, '/api/v1/jobs/createTask', sketch(extra)))['taskId'] as string;

  it('retries a failed task as a new billed task of the same key; the source stays as it was', async () => {
    const { accountId, auth } = await customer();
    const source = await created(auth, { simulate: 'upstream_failed' });
    const before = await settled(auth, source);
    const retry = await post(auth, '/api/v1/jobs/retry', { taskId: source }, { 'idempotency-key': 'r1' });
    expect(retry.status).toBe(200);
    const accepted = dataOf(retry);
    expect(accepted).toMatchObject({ sourceTaskId: source, state: 'queued', estimatedCost: '0.004' });
    const replay = await post(auth, '/api/v1/jobs/retry', { taskId: source }, { 'idempotency-key': 'r1' });
    expect(dataOf(replay)['taskId']).toBe(accepted['taskId']);
    const retried = await settled(auth, accepted['taskId'] as string);
    // The retry runs the same input, which asks for a failure again; it is a task of its own.
    expect(retried).toMatchObject({ state: 'failed', sourceTaskId: source });
    expect(dataOf(await get(auth, `/api/v1/jobs/recordInfo?taskId=${source}`))).toEqual(before);

    const succeeded = await created(auth);
    await settled(auth, succeeded);
    const notRetryable = await post(auth, '/api/v1/jobs/retry', { taskId: succeeded });
    expect([notRetryable.status, notRetryable.json['code']]).toEqual([409, 409]);
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    const sibling = await post({ authorization: `Bearer ${apiKey}` }, '/api/v1/jobs/retry', {
      taskId: source,
    });
    expect(sibling.status).toBe(404);
    const unknown = await post(auth, '/api/v1/jobs/retry', { taskId: 'job_01J0000000000000000000000Z' });
    expect(unknown.status).toBe(404);
    // Any text is a source id that may not exist: the same 404; an empty one cannot be an id at all.
    const unshaped = await post(auth, '/api/v1/jobs/retry', { taskId: 'job_nothing' });
    expect([unshaped.status, unshaped.json['code'], unshaped.json['msg']]).toEqual([
      404,
      404,
      unknown.json['msg'],
    ]);
    const malformed = await post(auth, '/api/v1/jobs/retry', { taskId: '' });
    expect([malformed.status, malformed.json['code']]).toEqual([400, 400]);
  });

  it('purges the outputs and the prompt of a terminal task and keeps its billing', async () => {
    const { auth } = await customer();
    const taskId = await created(auth);
    const done = await settled(auth, taskId);
    const url = (done['output'] as { assets: Json[] }).assets[0]!['url'] as string;
    expect((await fetch(url)).status).toBe(200);
    const purge = await post(auth, '/api/v1/jobs/purge', { taskId });
    expect(purge.status).toBe(200);
    expect(dataOf(purge)).toMatchObject({ taskId, purged: true });
    const after = dataOf(await get(auth, `/api/v1/jobs/recordInfo?taskId=${taskId}`));
    expect(after).toMatchObject({
      state: 'succeeded',
      cost: '0.004',
      settled: true,
      purgedAt: expect.any(String),
    });
    expect(after['input']).toBeUndefined();
    expect((after['output'] as { assets: Json[] }).assets[0]).toMatchObject({ unavailable: true });
    expect((await fetch(url)).status).toBe(404);
    expect((await post(auth, '/api/v1/jobs/purge', { taskId })).status).toBe(200);

    const inFlight = await created(auth, { delay_ms: 2000 });
    const busy = await post(auth, '/api/v1/jobs/purge', { taskId: inFlight });
    expect([busy.status, busy.json['code']]).toEqual([409, 409]);
    const other = await customer();
    expect((await post(other.auth, '/api/v1/jobs/purge', { taskId })).status).toBe(404);
  });

  it('X-Service-Retention shortens retention: the record shows the task purged, and the sweeper deletes the files', async () => {
    const { auth } = await customer();
    const reply = await post(auth, '/api/v1/jobs/createTask', sketch(), { 'x-service-retention': '1' });
    const taskId = dataOf(reply)['taskId'] as string;
    const done = await settled(auth, taskId);
    const url = (done['output'] as { assets: Json[] }).assets[0]!['url'] as string;
    await new Promise((r) => setTimeout(r, 1100));
    const after = dataOf(await get(auth, `/api/v1/jobs/recordInfo?taskId=${taskId}`));
    expect(after).toMatchObject({ state: 'succeeded', cost: '0.004', purgedAt: expect.any(String) });
    expect(after['input']).toBeUndefined();
    expect((after['output'] as { assets: Json[] }).assets[0]).toMatchObject({ unavailable: true });
    // Signed URLs never outlive retention: the one handed out before has expired with it.
    expect((await fetch(url)).status).toBe(403);
    const storage = app.app.get<ObjectStorage>(OBJECT_STORAGE);
    const key = `outputs/${taskId}/0.png`;
    expect(await storage.head(key)).not.toBeNull(); // not swept yet: the sweeper runs every minute
    expect(await app.app.get(PurgeTaskUseCase).purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await storage.head(key)).toBeNull();
    // Billing stays: the task still counts in usage with its charge.
    const usage = dataOf(await get(auth, '/api/v1/usage')) as { totals: { calls: number; spend: string } };
    expect(usage.totals).toEqual({ calls: 1, spend: '0.004' });
  });

  it('lists this key only, newest first, pages with a cursor that freezes the filters', async () => {
    const { accountId, auth } = await customer();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await created(auth));
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    await created({ authorization: `Bearer ${apiKey}` });

    const all = (dataOf(await get(auth, '/api/v1/jobs?limit=100')) as { items: Json[] }).items;
    expect(new Set(all.map((i) => i['taskId']))).toEqual(new Set(ids));
    const order = all.map((i) => [i['createdAt'] as string, i['taskId'] as string] as const);
    expect(order).toEqual(
      [...order].sort(([ca, ia], [cb, ib]) => (ca !== cb ? (ca < cb ? 1 : -1) : ia < ib ? 1 : -1)),
    );
    const newestFirst = all.map((i) => i['taskId']);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const from = new Date(Date.parse(tomorrow) - 7 * 86_400_000).toISOString().slice(0, 10);

    const first = await get(auth, '/api/v1/jobs?limit=2');
    expect(first.status).toBe(200);
    const page1 = dataOf(first) as { items: Json[]; nextCursor: string };
    expect(page1.items.map((i) => i['taskId'])).toEqual(newestFirst.slice(0, 2));
    expect(page1.items[0]).toEqual({
      taskId: newestFirst[0],
      model: 'local/sketch',
      state: expect.any(String),
      createdAt: expect.any(String),
      cost: expect.any(String),
      settled: expect.any(Boolean),
      estimatedCost: '0.004',
      requestId: expect.stringMatching(/^req_/),
      ...(page1.items[0]!['completedAt'] ? { completedAt: expect.any(String) } : {}),
    });
    const page2 = dataOf(await get(auth, `/api/v1/jobs?limit=2&cursor=${page1.nextCursor}`)) as {
      items: Json[];
      nextCursor: string;
    };
    expect(page2.items.map((i) => i['taskId'])).toEqual(newestFirst.slice(2, 4));
    const page3 = dataOf(await get(auth, `/api/v1/jobs?limit=2&cursor=${page2.nextCursor}&from=${from}`)) as {
      items: Json[];
      nextCursor?: string;
    };
    expect(page3.items.map((i) => i['taskId'])).toEqual(newestFirst.slice(4));
    expect(page3.nextCursor).toBeUndefined();
    // A cursor freezes the filters (the default dates too): repeating one is fine, changing or adding one is 400.
    expect((await get(auth, `/api/v1/jobs?cursor=${page1.nextCursor}&state=failed`)).status).toBe(400);
    expect((await get(auth, `/api/v1/jobs?cursor=${page1.nextCursor}&model=local/sketch`)).status).toBe(400);
    expect((await get(auth, `/api/v1/jobs?cursor=${page1.nextCursor}&from=2020-01-01`)).status).toBe(400);

    expect(dataOf(await get(auth, '/api/v1/jobs?state=failed'))).toEqual({ items: [] });
    expect(
      (dataOf(await get(auth, '/api/v1/jobs?model=local/sketch-1')) as { items: Json[] }).items,
    ).toHaveLength(5);
    expect(
      (dataOf(await get(auth, '/api/v1/jobs?from=2020-01-01&to=2020-02-01')) as { items: Json[] }).items,
    ).toEqual([]);
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=',
      'foo=1',
      'state=done',
      'from=2026-02-30',
      'limit=1&limit=2',
      'from=2026-01-01&to=2026-06-01',
      'cursor=!!!',
    ]) {
      const reply = await get(auth, `/api/v1/jobs?${query}`);
      expect([query, reply.status, reply.json['code']]).toEqual([query, 400, 400]);
    }
  });

  it('usage counts calls by creation day and settled spend only, with its own per-account bucket', async () => {
    const { accountId, auth } = await customer();
    const a = await created(auth);
    const b = await created(auth, { simulate: 'upstream_failed' });
    await Promise.all([settled(auth, a), settled(auth, b)]);
    await created(auth, { delay_ms: 3000 }); // held, not settled: counts as a call, not as spend
    const reply = await get(auth, '/api/v1/usage');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-ratelimit-limit')).toBe('30');
    const today = new Date().toISOString().slice(0, 10);
    expect(dataOf(reply)).toMatchObject({
      currency: 'USD',
      totals: { calls: 3, spend: '0.004' },
      days: [
        {
          date: today,
          calls: 3,
          spend: '0.004',
          models: [{ model: 'local/sketch', calls: 3, spend: '0.004' }],
        },
      ],
      models: [{ model: 'local/sketch', calls: 3, spend: '0.004' }],
    });
    const empty = dataOf(await get(auth, '/api/v1/usage?from=2020-01-01&to=2020-01-02'));
    expect(empty).toMatchObject({ totals: { calls: 0, spend: '0' }, days: [], models: [] });
    expect((await get(auth, '/api/v1/usage?from=2026-01-01&from=2026-01-02')).status).toBe(400);

    // The bucket is the account's: a sibling key shares it. 30 in a burst, then 429 with Retry-After.
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    const sibling = { authorization: `Bearer ${apiKey}` };
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1)
      statuses.push((await get(i % 2 ? sibling : auth, '/api/v1/usage')).status);
    const limited = statuses.indexOf(429);
    expect(limited).toBeGreaterThanOrEqual(25);
    const refused = await get(sibling, '/api/v1/usage');
    expect([refused.status, refused.json['code']]).toEqual([429, 429]);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
