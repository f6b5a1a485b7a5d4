import type { MediaResult, MediaTask, ModelBinding } from '@gen/contracts';
import { UpstreamError } from '../chat/upstream-error';
import type { UpstreamAdapter } from '../registry/upstream-adapter';
import { FakeReplicate } from '../testing/fake-replicate';
import { sampleMp4, samplePng, sampleWav } from '../testing/media-samples';
import { ScriptedServer } from '../testing/scripted-server';
import { replicateAdapter } from './replicate.adapter';
import { predictionOutputUrls } from './replicate-output';

const TASK: MediaTask = {
  taskId: 'task_9',
  model: 'flux/schnell',
  input: { prompt: 'a lighthouse at dusk', num_outputs: 2 },
  deadlineAt: '2030-01-01T00:00:00Z',
};

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof UpstreamError)) throw new Error(`expected an UpstreamError, got ${String(error)}`);
  return error;
}

const bytesOf = (result: MediaResult): Buffer[] =>
  result.status === 'succeeded' ? result.files.map((f) => f.bytes) : [];

describe('replicateAdapter against a fake Replicate API and Cog server', () => {
  const png = samplePng(4, 4);
  const wav = sampleWav(0.1, 8000, 1);
  const mp4 = sampleMp4({ timescale: 10, duration: 20, video: { width: 4, height: 4 } });
  let fake: FakeReplicate;
  const environment = {
    credential: (name: string) => (name === 'REPLICATE_API_TOKEN' ? 'r8_token' : undefined),
  };
  const binding = (
    settings: Record<string, unknown> = {},
    upstreamModel = 'black-forest-labs/flux-schnell',
  ): ModelBinding => ({
    adapter: 'replicate',
    upstreamModel,
    credentials: ['REPLICATE_API_TOKEN'],
    settings: { baseUrl: fake.baseUrl, pollIntervalMs: 10, ...settings },
  });
  let adapter: UpstreamAdapter;
  const generate = (signal = new AbortController().signal) => adapter.generate!(TASK, signal);

  beforeEach(async () => {
    fake = await FakeReplicate.start();
    adapter = replicateAdapter(binding(), environment);
  });
  afterEach(() => fake.close());

  it('sends media inputs the runner read as data: URLs, never the service:// URI', async () => {
    fake.predict({
      polls: 0,
      final: { status: 'succeeded', output: [fake.serveFile('a.png', png, 'image/png')] },
    });
    const task: MediaTask = {
      ...TASK,
      input: { prompt: 'the same, in winter', image: 'service://files/fil_1' },
      media: { image: { bytes: png, contentType: 'image/png', width: 4, height: 4 } },
    };
    expect(await adapter.generate!(task, new AbortController().signal)).toMatchObject({
      status: 'succeeded',
    });
    expect(fake.created[0]!.body).toEqual({
      input: { prompt: 'the same, in winter', image: `data:image/png;base64,${png.toString('base64')}` },
    });
    expect(task.input['image']).toBe('service://files/fil_1'); // the task itself is unchanged
  });

  it('creates a model prediction, polls it to success and downloads its outputs', async () => {
    const urls = [
      fake.serveFile('a.png', png, 'image/png'),
      fake.serveFile('b.png', Buffer.from(png).reverse()),
    ];
    fake.predict({ polls: 3, final: { status: 'succeeded', output: urls } });
    const result = await generate();
    expect(result).toMatchObject({ status: 'succeeded', assets: 'ready' });
    expect(bytesOf(result)).toEqual([png, Buffer.from(png).reverse()]);
    const [created] = fake.created;
    expect(created).toMatchObject({
      method: 'POST',
      path: '/v1/models/black-forest-labs/flux-schnell/predictions',
    });
    expect(created!.body).toEqual({ input: TASK.input });
    expect(created!.headers.authorization).toBe('Bearer r8_token');
    expect(fake.pollsOf('pred1')).toBe(4); // three `processing`, then `succeeded`
    expect(
      fake.server.requests
        .filter((r) => r.method === 'GET' && r.path.startsWith('/v1/'))
        .every((r) => r.headers.authorization === 'Bearer r8_token'),
    ).toBe(true);
    expect(fake.cancels).toEqual([]);
  });

  it('creates a version prediction for owner/name:version, and takes data: URIs and object outputs', async () => {
    adapter = replicateAdapter(binding({}, 'stability-ai/sdxl:39ed52f2a78e'), environment);
    const object = {
      audio: fake.serveFile('o.wav', wav),
      video: `data:video/mp4;base64,${mp4.toString('base64')}`,
    };
    fake.predict({ final: { status: 'succeeded', output: object } });
    expect(bytesOf(await generate())).toEqual([wav, mp4]);
    expect(fake.created[0]).toMatchObject({
      path: '/v1/predictions',
      body: { version: '39ed52f2a78e', input: TASK.input },
    });
  });

  it('rejects a prediction failed by the safety checker, and fails other failures and cancellations', async () => {
    fake.predict(
      {
        polls: 1,
        final: {
          status: 'failed',
          error: 'NSFW content detected. Try running it again, or try a different prompt.',
        },
      },
      { final: { status: 'failed', error: 'CUDA out of memory' } },
      { final: { status: 'canceled' } },
      { final: { status: 'succeeded', output: null } },
    );
    const refused = await failure(generate());
    expect(refused).toMatchObject({ kind: 'rejected', upstreamText: expect.stringContaining('NSFW') });
    expect(refused.message).not.toContain('NSFW');
    expect(await failure(generate())).toMatchObject({ kind: 'failed', upstreamText: 'CUDA out of memory' });
    expect(await failure(generate())).toMatchObject({
      kind: 'failed',
      message: expect.stringContaining('canceled'),
    });
    expect(await failure(generate())).toMatchObject({
      kind: 'failed',
      message: expect.stringContaining('no file output'),
    });
  });

  it('classifies HTTP errors on creation: 429 with Retry-After, 500, 422, and malformed JSON', async () => {
    fake.predict(
      FakeReplicate.error(429, 'Request was throttled. Expected available in 4 seconds.', {
        'retry-after': '4',
      }),
      FakeReplicate.error(500, 'Internal server error'),
      FakeReplicate.error(422, 'input.num_outputs: Must be less than or equal to 4'),
      { status: 201, body: '{"id": "pred' },
    );
    expect(await failure(generate())).toMatchObject({ kind: 'retryable', status: 429, retryAfterMs: 4000 });
    expect(await failure(generate())).toMatchObject({ kind: 'retryable', status: 500 });
    expect(await failure(generate())).toMatchObject({ kind: 'failed', status: 422 });
    expect(await failure(generate())).toMatchObject({
      kind: 'failed',
      message: expect.stringContaining('not a JSON object'),
    });
  });

  it('rides out a transient poll error, and cancels the prediction when polls keep failing', async () => {
    const url = fake.serveFile('a.png', png);
    fake.predict(
      {
        polls: 2,
        pollReplies: [FakeReplicate.error(502, 'Bad gateway')],
        final: { status: 'succeeded', output: url },
      },
      {
        pollReplies: Array(3).fill(FakeReplicate.error(503, 'Unavailable')),
        final: { status: 'succeeded', output: url },
      },
    );
    adapter = replicateAdapter(binding({ pollRetries: 2 }), environment);
    expect(bytesOf(await generate())).toEqual([png]);
    expect(await failure(generate())).toMatchObject({ kind: 'retryable', status: 503 });
    expect(fake.cancels).toEqual(['pred2']);
  });

  it("cancels the prediction when the signal aborts, and rejects with the signal's reason", async () => {
    fake.predict({ polls: 1000, final: { status: 'succeeded', output: 'unused' } });
    const controller = new AbortController();
    const reason = new Error('runner stopping');
    const pending = generate(controller.signal);
    while (fake.pollsOf('pred1') < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(fake.cancels).toEqual(['pred1']);
    const polls = fake.pollsOf('pred1');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.pollsOf('pred1')).toBe(polls); // polling stopped
  });

  it('refuses an output URL on another private address, and never sends the token to a foreign poll URL', async () => {
    const elsewhere = await ScriptedServer.start();
    try {
      const foreign = elsewhere.serveFile('x.png', png);
      fake.predict(
        { final: { status: 'succeeded', output: [foreign] } },
        { final: { status: 'succeeded', output: foreign.replace('http:', 'https:') } },
        {
          urls: { get: `${elsewhere.origin}/v1/predictions/pred3`, cancel: `${elsewhere.origin}/cancel` },
          final: { status: 'succeeded', output: fake.serveFile('ok.png', png) },
        },
      );
      for (let i = 0; i < 2; i++) {
        expect(await failure(generate())).toMatchObject({
          kind: 'failed',
          message: expect.stringContaining('output URL was refused'),
        });
      }
      expect(bytesOf(await generate())).toEqual([png]); // polled at the baseUrl instead
      expect(fake.pollsOf('pred3')).toBe(1);
      expect(elsewhere.connections).toBe(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('runs a Cog prediction synchronously, downloading files the Cog server serves itself', async () => {
    adapter = replicateAdapter(binding({ api: 'cog', baseUrl: fake.cogBaseUrl }), {
      credential: () => undefined,
    });
    fake.cog(
      {
        body: {
          status: 'succeeded',
          output: [fake.serveFile('c.png', png), `data:image/png;base64,${png.toString('base64')}`],
        },
      },
      { body: { status: 'failed', error: 'Image flagged by the safety checker' } },
      FakeReplicate.error(409, 'Already running a prediction'),
    );
    expect(bytesOf(await generate())).toEqual([png, png]);
    const [created] = fake.created;
    expect(created).toMatchObject({ path: '/predictions', body: { input: TASK.input } });
    expect(typeof (created!.body as { id?: unknown }).id).toBe('string');
    expect(created!.headers.authorization).toBeUndefined();
    expect(await failure(generate())).toMatchObject({ kind: 'rejected' });
    expect(await failure(generate())).toMatchObject({ kind: 'retryable', status: 409 });
  });

  it('cancels a Cog prediction by its id when the signal aborts', async () => {
    adapter = replicateAdapter(binding({ api: 'cog', baseUrl: fake.cogBaseUrl }), environment);
    fake.cog({ delayMs: 2000, body: { status: 'succeeded', output: 'x' } });
    const controller = new AbortController();
    const reason = new Error('stopping');
    setTimeout(() => controller.abort(reason), 50);
    await expect(generate(controller.signal)).rejects.toBe(reason);
    expect(fake.cancels).toEqual([(fake.created[0]!.body as { id: string }).id]);
  });

  it('refuses unusable bindings when built', () => {
    expect(() => replicateAdapter(binding({ api: 'banana' }), environment)).toThrow('"api"');
    expect(() =>
      replicateAdapter({ ...binding({ api: 'cog' }), settings: { api: 'cog' } }, environment),
    ).toThrow('"baseUrl"');
  });
});

describe('predictionOutputUrls', () => {
  it('takes a string, an array of strings, or an object of strings and string arrays in key order', () => {
    expect(predictionOutputUrls('https://x/a.png')).toEqual(['https://x/a.png']);
    expect(predictionOutputUrls(['a', 'b'])).toEqual(['a', 'b']);
    expect(predictionOutputUrls({ video: 'v', frames: ['f1', 'f2'] })).toEqual(['v', 'f1', 'f2']);
    for (const other of [null, 3, '', ['a', 1], { text: { nested: 'x' } }, [null]]) {
      expect(predictionOutputUrls(other)).toBeNull();
    }
  });
});
