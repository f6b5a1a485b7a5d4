import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeImagesUpstream, FakeReplicate, samplePng, sampleWav } from '@gen/providers/testing';
import { OpenApiCheck } from '@gen/testing';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

type Json = Record<string, unknown>;

jest.setTimeout(90_000);
const dataOf = (reply: Reply) => reply.json['data'] as Json;

/** An image model behind an OpenAI-style images upstream, priced per image and held for `n` images. */
function imagesModel(id: string, baseUrl: string, settings: Json = {}): Json {
  return {
    id,
    name: id,
    description: 'Images from an OpenAI-style upstream (tests).',
    enabled: true,
    modality: 'image',
    task: 'text-to-image',
    created: '2026-03-01',
    provider: {
      adapter: 'openai-images',
      upstreamModel: 'pics-1',
      credentials: ['ACME_PICS_KEY'],
      settings: { baseUrl, maxAttempts: 2, retryBaseMs: 10, ...settings },
    },
    usageBound: { images: { input: 'n' } },
    pricing: { perImage: '0.01' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['prompt'],
      properties: {
        prompt: { type: 'string', minLength: 1, maxLength: 200 },
        n: { type: 'integer', minimum: 1, maximum: 4, default: 1 },
      },
    },
    examples: [{ input: { prompt: 'a fox' } }],
  };
}

/** A speech model behind Replicate predictions, priced per second and held for 10 seconds. */
function voiceModel(baseUrl: string): Json {
  return {
    id: 'acme/voice',
    name: 'Voice',
    description: 'Speech from a Replicate-style upstream (tests).',
    enabled: true,
    modality: 'audio',
    task: 'text-to-speech',
    created: '2026-03-01',
    provider: {
      adapter: 'replicate',
      upstreamModel: 'acme/voice',
      credentials: ['ACME_REPLICATE_TOKEN'],
      settings: { baseUrl, pollIntervalMs: 20 },
    },
    usageBound: { seconds: 10 },
    pricing: { perSecond: '0.05' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['text'],
      properties: { text: { type: 'string', minLength: 1, maxLength: 200 } },
    },
    examples: [{ input: { text: 'hello' } }],
  };
}

describe('models behind real upstreams, in embedded mode: the provider port from createTask to settlement', () => {
  let app: Embedded;
  let openApi: OpenApiCheck;
  let pics: FakeImagesUpstream;
  let flaky: FakeImagesUpstream;
  let replicate: FakeReplicate;
  const saved = { ...process.env };

  beforeAll(async () => {
    [pics, flaky, replicate] = await Promise.all([
      FakeImagesUpstream.start(),
      FakeImagesUpstream.start(),
      FakeReplicate.start(),
    ]);
    const shipped = JSON.parse(readFileSync('libs/catalog/catalog/models.json', 'utf8')) as {
      models: Json[];
    };
    const dir = mkdtempSync(join(tmpdir(), 'upstream-catalog-'));
    const catalogFile = join(dir, 'models.json');
    writeFileSync(
      catalogFile,
      JSON.stringify({
        version: 1,
        models: [
          ...shipped.models,
          imagesModel('acme/pics', pics.baseUrl),
          // Its own upstream (its own circuit): a breaker that opens, then lets a probe through after 1.5 s.
          imagesModel('acme/flaky', flaky.baseUrl, {
            maxAttempts: 1,
            breakerVolume: 3,
            breakerResetMs: 1500,
          }),
          voiceModel(replicate.baseUrl),
        ],
      }),
    );
    // Credentials come from the environment, never from a request.
    process.env['ACME_PICS_KEY'] = 'sk-pics';
    process.env['ACME_REPLICATE_TOKEN'] = 'r8-voice';
    app = await startEmbedded({ LOG_LEVEL: 'silent', CATALOG_FILE: catalogFile, RATE_LIMIT_BURST: '2000' });
    openApi = new OpenApiCheck((await app.call('GET', '/openapi.json')).json);
  });

  afterAll(async () => {
    process.env = saved;
    await app?.close();
    await Promise.all([pics?.close(), flaky?.close(), replicate?.close()]);
  });

  async function call(method: string, path: string, options: Parameters<Embedded['call']>[2] = {}) {
    const reply = await app.call(method, path, options);
    openApi.check(method, path, reply.status, reply.headers, reply.json);
    return reply;
  }

  async function customer(credit: string) {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 'u', credit })) as {
      accountId: string;
    };
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    return { authorization: `Bearer ${apiKey}` };
  }

  const create = (auth: Record<string, string>, model: string, input: Json) =>
    call('POST', '/api/v1/jobs/createTask', { headers: auth, body: { model, input } });

  async function balance(auth: Record<string, string>) {
    return dataOf(await call('GET', '/api/v1/chat/credit', { headers: auth }));
  }

  async function settled(auth: Record<string, string>, taskId: string): Promise<Json> {
    const until = Date.now() + 30_000;
    for (;;) {
      const task = dataOf(await call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth }));
      if (task['settled'] === true) return task;
      if (Date.now() > until) throw new Error(`task ${taskId} stayed ${JSON.stringify(task)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function available(model: string): Promise<{ native: unknown; openAi: unknown }> {
    const auth = { authorization: `Bearer ${app.boot.apiKey}` };
    const native = dataOf(
      await call('GET', `/api/v1/models/${encodeURIComponent(model)}`, { headers: auth }),
    )['available'];
    const list = (await call('GET', '/v1/models', { headers: auth })).json['data'] as Json[];
    return { native, openAi: list.find((m) => m['id'] === model)?.['available'] };
  }

  /** Polls both lists until the model shows `expected` in each; resolves with how long that took. */
  async function becomes(model: string, expected: boolean, withinMs: number): Promise<number> {
    const started = Date.now();
    for (;;) {
      const seen = await available(model);
      if (seen.native === expected && seen.openAi === expected) return Date.now() - started;
      if (Date.now() - started > withinMs) throw new Error(`${model} still shows ${JSON.stringify(seen)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('generates images upstream, stores them, and charges what the stored files measure', async () => {
    const auth = await customer('1');
    const images = [samplePng(64, 32), samplePng(48, 48)];
    pics.answer(FakeImagesUpstream.b64(images));
    const reply = await create(auth, 'acme/pics', { prompt: 'two foxes', n: 2 });
    expect(reply.status).toBe(202);
    expect(dataOf(reply)['estimatedCost']).toBe('0.02');
    const task = await settled(auth, dataOf(reply)['taskId'] as string);
    expect(task).toMatchObject({ state: 'succeeded', cost: '0.02', settled: true });
    const assets = (task['output'] as { assets: Json[] }).assets;
    expect(assets.map((a) => [a['mime'], a['width'], a['height'], a['bytes']])).toEqual([
      ['image/png', 64, 32, images[0]!.length],
      ['image/png', 48, 48, images[1]!.length],
    ]);
    const stored = Buffer.from(await (await fetch(assets[1]!['url'] as string)).arrayBuffer());
    expect(stored.equals(images[1]!)).toBe(true);
    const [request] = pics.generations.slice(-1);
    expect(request!.headers['authorization']).toBe('Bearer sk-pics');
    expect(request!.body).toEqual({ model: 'pics-1', prompt: 'two foxes', n: 2 });
    expect(await balance(auth)).toMatchObject({ available: '0.98', held: '0' });
  });

  it('polls a Replicate prediction and charges the seconds the stored sound measures, not the hold', async () => {
    const auth = await customer('1');
    const wav = sampleWav(2.5, 8000, 1);
    replicate.predict({
      polls: 2,
      final: { status: 'succeeded', output: replicate.serveFile('v.wav', wav) },
    });
    const reply = await create(auth, 'acme/voice', { text: 'hello there' });
    expect(dataOf(reply)['estimatedCost']).toBe('0.5');
    const task = await settled(auth, dataOf(reply)['taskId'] as string);
    expect(task).toMatchObject({ state: 'succeeded', cost: '0.125' });
    expect((task['output'] as { assets: Json[] }).assets[0]).toMatchObject({
      mime: 'audio/wav',
      durationSeconds: 2.5,
      bytes: wav.length,
    });
    expect(replicate.created.slice(-1)[0]!.headers['authorization']).toBe('Bearer r8-voice');
    expect(await balance(auth)).toMatchObject({ available: '0.875', held: '0' });
  });

  it('retries a 429 after its Retry-After, inside the deadline', async () => {
    const auth = await customer('1');
    const before = pics.generations.length;
    pics.answer(
      FakeImagesUpstream.error(429, { message: 'slow down', type: 'rate_limit' }, { 'retry-after': '0.2' }),
      FakeImagesUpstream.b64([samplePng(32, 32)]),
    );
    const task = await settled(
      auth,
      dataOf(await create(auth, 'acme/pics', { prompt: 'a fox' }))['taskId'] as string,
    );
    expect(task).toMatchObject({ state: 'succeeded', cost: '0.01' });
    expect(pics.generations.length - before).toBe(2);
  });

  it('a content refusal fails the task as content_rejected, costs nothing, and is not retried', async () => {
    const auth = await customer('1');
    const before = pics.generations.length;
    pics.answer(
      FakeImagesUpstream.error(400, {
        message: 'Your request was rejected by our safety system: private words',
        type: 'invalid_request_error',
        code: 'content_policy_violation',
      }),
    );
    const task = await settled(
      auth,
      dataOf(await create(auth, 'acme/pics', { prompt: 'a fox' }))['taskId'] as string,
    );
    expect(task).toMatchObject({ state: 'failed', errorCode: 'content_rejected', cost: '0' });
    expect(JSON.stringify(task)).not.toContain('private words'); // the upstream's text stays in the log
    expect(pics.generations.length - before).toBe(1);
    expect(await balance(auth)).toMatchObject({ available: '1', held: '0' });
  });

  it('refuses an output URL on a private address (SSRF guard): the task fails and nothing is fetched', async () => {
    const auth = await customer('1');
    const other = await FakeImagesUpstream.start();
    try {
      const elsewhere = other.server.serveFile('x.png', samplePng(32, 32), 'image/png');
      pics.answer(FakeImagesUpstream.urls([elsewhere]));
      const taskId = dataOf(await create(auth, 'acme/pics', { prompt: 'a fox' }))['taskId'] as string;
      expect(await settled(auth, taskId)).toMatchObject({
        state: 'failed',
        errorCode: 'upstream_failed',
        cost: '0',
      });
      expect(other.server.connections).toBe(0);
      expect(await balance(auth)).toMatchObject({ available: '1', held: '0' });
    } finally {
      await other.close();
    }
  });

  it('500 bursts open the breaker: unavailable within a second, 50301 without a hold, then a probe recovers', async () => {
    const auth = await customer('1');
    expect(await available('acme/flaky')).toEqual({ native: true, openAi: true });
    const boom = FakeImagesUpstream.error(500, { message: 'boom', type: 'server_error' });
    flaky.answer(boom, boom, boom);
    for (let i = 0; i < 3; i += 1) {
      const taskId = dataOf(await create(auth, 'acme/flaky', { prompt: 'a fox' }))['taskId'] as string;
      expect(await settled(auth, taskId)).toMatchObject({ state: 'failed', errorCode: 'upstream_failed' });
    }
    // The third failure opened the breaker before the task was reported: both lists show it within a second.
    expect(await becomes('acme/flaky', false, 1000)).toBeLessThan(1000);
    const before = await balance(auth);
    const refused = await create(auth, 'acme/flaky', { prompt: 'a fox' });
    expect([refused.status, refused.json['code']]).toEqual([503, 50301]);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await balance(auth)).toEqual(before);
    expect(flaky.generations).toHaveLength(3);
    // Other upstreams are not affected.
    expect(await available('acme/pics')).toEqual({ native: true, openAi: true });

    // After breakerResetMs the circuit lets a probe through; its success closes the breaker.
    await becomes('acme/flaky', true, 5000);
    flaky.answer(FakeImagesUpstream.b64([samplePng(32, 32)]));
    const probe = dataOf(await create(auth, 'acme/flaky', { prompt: 'a fox' }))['taskId'] as string;
    expect(await settled(auth, probe)).toMatchObject({ state: 'succeeded', cost: '0.01' });
    expect(await available('acme/flaky')).toEqual({ native: true, openAi: true });
  });

  it('lists a model unavailable while its credentials are missing, and refuses it with 503 holding nothing', async () => {
    // The catalog reads the environment when asked: removing the key takes effect at once.
    delete process.env['ACME_REPLICATE_TOKEN'];
    try {
      await becomes('acme/voice', false, 1000);
      const auth = await customer('1');
      const refused = await create(auth, 'acme/voice', { text: 'hello' });
      expect([refused.status, refused.json['code']]).toEqual([503, 503]);
      expect(await balance(auth)).toMatchObject({ available: '1', held: '0' });
    } finally {
      process.env['ACME_REPLICATE_TOKEN'] = 'r8-voice';
    }
  });
});
