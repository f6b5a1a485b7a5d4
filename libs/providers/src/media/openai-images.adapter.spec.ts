import type { MediaTask, ModelBinding } from '@gen/contracts';
import { UpstreamError } from '../chat/upstream-error';
import type { UpstreamAdapter } from '../registry/upstream-adapter';
import { FakeImagesUpstream } from '../testing/fake-images-upstream';
import { samplePng } from '../testing/media-samples';
import { ScriptedServer } from '../testing/scripted-server';
import { openAiImagesAdapter } from './openai-images.adapter';

const TASK: MediaTask = {
  taskId: 'task_1',
  model: 'openai/gpt-image-1',
  input: { prompt: 'a red bicycle', n: 2, size: '1024x1024', quality: 'low' },
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

describe('openAiImagesAdapter against a fake OpenAI images upstream', () => {
  const images = [samplePng(4, 3), samplePng(8, 2)];
  let upstream: FakeImagesUpstream;
  let adapter: UpstreamAdapter;
  const binding = (settings: Record<string, unknown> = {}): ModelBinding => ({
    adapter: 'openai-images',
    upstreamModel: 'gpt-image-1',
    credentials: ['OPENAI_API_KEY'],
    settings: { baseUrl: upstream.baseUrl, ...settings },
  });
  const environment = { credential: (name: string) => (name === 'OPENAI_API_KEY' ? 'sk-img' : undefined) };
  const generate = () => adapter.generate!(TASK, new AbortController().signal);

  beforeEach(async () => {
    upstream = await FakeImagesUpstream.start();
    adapter = openAiImagesAdapter(binding(), environment);
  });
  afterEach(() => upstream.close());

  it('posts the model and the validated input with the Bearer key, and decodes b64_json images', async () => {
    upstream.answer(FakeImagesUpstream.b64(images));
    const result = await generate();
    expect(result).toMatchObject({ status: 'succeeded', assets: 'ready' });
    const files = result.status === 'succeeded' ? result.files : [];
    expect(files.map((f) => f.bytes.equals(images[files.indexOf(f)]!))).toEqual([true, true]);
    const [sent] = upstream.generations;
    expect(sent!.method).toBe('POST');
    expect(sent!.headers.authorization).toBe('Bearer sk-img');
    expect(sent!.body).toEqual({
      model: 'gpt-image-1',
      prompt: 'a red bicycle',
      n: 2,
      size: '1024x1024',
      quality: 'low',
    });
  });

  it('downloads url results from the upstream itself, and refuses ones on another private address', async () => {
    upstream.answer(upstream.served(images));
    const result = await generate();
    const files = result.status === 'succeeded' ? result.files : [];
    expect(files.map((f) => [f.bytes.equals(images[files.indexOf(f)]!), f.claimedType])).toEqual([
      [true, 'image/png'],
      [true, 'image/png'],
    ]);
    expect(upstream.server.requestsTo('/files/image-1.png')).toHaveLength(1);

    const elsewhere = await ScriptedServer.start();
    try {
      const url = elsewhere.serveFile('x.png', images[0]!);
      upstream.answer(
        FakeImagesUpstream.urls([url]),
        FakeImagesUpstream.urls([url.replace('http:', 'https:')]),
      );
      for (let i = 0; i < 2; i++) {
        const error = await failure(generate());
        expect(error).toMatchObject({
          kind: 'failed',
          message: expect.stringContaining('output URL was refused'),
        });
      }
      expect(elsewhere.connections).toBe(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('fails retryable on 429 (keeping Retry-After) and on 500', async () => {
    upstream.answer(
      FakeImagesUpstream.error(
        429,
        { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
        { 'retry-after': '7' },
      ),
      FakeImagesUpstream.error(500, { message: 'The server had an error', type: 'server_error' }),
    );
    expect(await failure(generate())).toMatchObject({ kind: 'retryable', status: 429, retryAfterMs: 7000 });
    const error = await failure(generate());
    expect(error).toMatchObject({ kind: 'retryable', status: 500 });
    expect(error.message).not.toContain('server had an error');
    expect(error.upstreamText).toContain('server had an error');
  });

  it('rejects a content policy refusal, and fails other 4xx and malformed answers', async () => {
    upstream.answer(
      FakeImagesUpstream.error(400, {
        message: 'Your request was rejected as a result of our safety system.',
        type: 'invalid_request_error',
        code: 'content_policy_violation',
      }),
      FakeImagesUpstream.error(400, {
        message: "Invalid value: 'huge'. Supported values are: ...",
        type: 'invalid_request_error',
        code: 'invalid_value',
      }),
      FakeImagesUpstream.error(401, {
        message: 'Incorrect API key provided',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      }),
      { body: '{"created": 1, "data": [' },
      { body: { created: 1, data: [] } },
      { body: { created: 1, data: [{ revised_prompt: 'x' }] } },
    );
    expect(await failure(generate())).toMatchObject({ kind: 'rejected', status: 400 });
    expect(await failure(generate())).toMatchObject({ kind: 'failed', status: 400 });
    expect(await failure(generate())).toMatchObject({ kind: 'failed', status: 401 });
    expect(await failure(generate())).toMatchObject({
      kind: 'failed',
      message: expect.stringContaining('not a JSON object'),
    });
    expect(await failure(generate())).toMatchObject({
      kind: 'failed',
      message: expect.stringContaining('no images'),
    });
    expect(await failure(generate())).toMatchObject({
      kind: 'failed',
      message: expect.stringContaining('neither'),
    });
  });

  it('fails retryable when the response takes longer than timeoutMs, and aborts with the signal', async () => {
    adapter = openAiImagesAdapter(binding({ timeoutMs: 80 }), environment);
    upstream.answer(
      { ...FakeImagesUpstream.b64(images), delayMs: 400 },
      { ...FakeImagesUpstream.b64(images), delayMs: 400 },
    );
    expect(await failure(generate())).toMatchObject({
      kind: 'retryable',
      message: expect.stringContaining('80 ms'),
    });
    adapter = openAiImagesAdapter(binding(), environment);
    const controller = new AbortController();
    const reason = new Error('stopping');
    setTimeout(() => controller.abort(reason), 30);
    await expect(adapter.generate!(TASK, controller.signal)).rejects.toBe(reason);
  });

  it('uses OpenAI by default and sends no Authorization when the binding names no credential', () => {
    expect(() => openAiImagesAdapter({ ...binding(), settings: {} }, environment)).not.toThrow();
    adapter = openAiImagesAdapter({ ...binding(), credentials: [] }, environment);
    upstream.answer(FakeImagesUpstream.b64(images));
    return generate().then(() => expect(upstream.generations[0]!.headers.authorization).toBeUndefined());
  });
});
