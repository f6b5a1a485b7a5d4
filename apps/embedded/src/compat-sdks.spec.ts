import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

type Json = Record<string, unknown>;

jest.setTimeout(90_000);
const dataOf = (reply: Reply) => reply.json['data'] as Json;

/**
 * The official SDKs, unmodified, pointed at the service: each protocol's answers are what the SDK expects, and
 * each accepted request is a task whose cost is read back with recordInfo of X-Service-Task-Id.
 */
describe('the compatibility endpoints through the official SDKs', () => {
  let app: Embedded;
  let apiKey: string;
  let auth: Record<string, string>;

  beforeAll(async () => {
    app = await startEmbedded({ LOG_LEVEL: 'silent', RATE_LIMIT_BURST: '2000' });
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 'sdk', credit: '5' })) as {
      accountId: string;
    };
    ({ apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    });
    auth = { authorization: `Bearer ${apiKey}` };
  });
  afterAll(() => app.close());

  async function settled(taskId: string): Promise<Json> {
    const until = Date.now() + 30_000;
    for (;;) {
      const task = dataOf(
        await app.call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth }),
      );
      if (task['settled'] === true) return task;
      if (Date.now() > until) throw new Error(`task ${taskId} stayed ${JSON.stringify(task)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const openai = () => new OpenAI({ apiKey, baseURL: `${app.baseUrl}/v1`, maxRetries: 0 });

  it('openai chat.completions: a whole answer, its usage, its task settled at that usage', async () => {
    const { data, response } = await openai()
      .chat.completions.create({
        model: 'local/echo/chat',
        messages: [{ role: 'user', content: 'hello there' }],
        temperature: 5,
        user: 'someone',
      })
      .withResponse();
    expect(response.status).toBe(200);
    expect(data.object).toBe('chat.completion');
    expect(data.choices[0]!.message.content).toBe('Echo: hello there');
    expect(data.choices[0]!.finish_reason).toBe('stop');
    const requestId = response.headers.get('x-request-id')!;
    expect(data.id).toBe(`chatcmpl-${requestId}`);
    expect(response.headers.get('x-service-adjusted-params')).toBe('temperature=2');
    expect(response.headers.get('x-service-ignored-params')).toBe('user');
    const taskId = response.headers.get('x-service-task-id')!;
    const task = await settled(taskId);
    expect(task).toMatchObject({ state: 'succeeded', output: { text: 'Echo: hello there' } });
    expect((task['output'] as { usage: Json }).usage).toMatchObject({
      prompt_tokens: data.usage!.prompt_tokens,
      completion_tokens: data.usage!.completion_tokens,
    });
    expect(Number(task['cost'])).toBeGreaterThan(0);
  });

  it('openai chat.completions: a stream with usage, and a tool call assembled by the SDK', async () => {
    const stream = await openai().chat.completions.create({
      model: 'local/echo/chat',
      messages: [{ role: 'user', content: 'streamed words' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown = null;
    let finishes = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.choices[0]?.finish_reason) finishes += 1;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Echo: streamed words');
    expect(finishes).toBe(1);
    expect(usage).toMatchObject({ completion_tokens: 4 });

    const tools = await openai().chat.completions.create({
      model: 'local/echo/chat',
      messages: [{ role: 'user', content: 'Paris [[tool]]' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
      ],
    });
    const call = tools.choices[0]!.message.tool_calls![0]!;
    expect(tools.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.type === 'function' && call.function).toMatchObject({
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
  });

  it('openai errors arrive as APIError with status, code and param; nothing is held', async () => {
    const before = dataOf(await app.call('GET', '/api/v1/chat/credit', { headers: auth }));
    const refused = await openai()
      .chat.completions.create({
        model: 'local/echo/chat',
        messages: [{ role: 'user', content: 'x' }],
        logprobs: true,
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect(refused).toMatchObject({ status: 400, code: 'unsupported_parameter', param: 'logprobs' });
    const missing = await openai()
      .chat.completions.create({ model: 'acme/echo/chatt', messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(missing).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    expect((missing as Error).message).toContain('local/echo/chat');
    const media = await openai()
      .chat.completions.create({ model: 'local/sketch', messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(media).toMatchObject({ status: 400, param: 'model' });
    const bad = await new OpenAI({
      apiKey: 'sk-nope',
      baseURL: `${app.baseUrl}/v1`,
      maxRetries: 0,
    }).chat.completions
      .create({ model: 'local/echo/chat', messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(dataOf(await app.call('GET', '/api/v1/chat/credit', { headers: auth }))).toEqual(before);
  });

  it('openai responses: whole and streamed', async () => {
    const whole = await openai().responses.create({ model: 'local/echo/chat', input: 'responses api' });
    expect(whole.output_text).toBe('Echo: responses api');
    expect(whole.instructions).toBeNull();
    const instructed = await openai().responses.create({
      model: 'local/echo/chat',
      instructions: 'Be brief.',
      input: 'with instructions',
    });
    // The Response object echoes the instructions it was given.
    expect(instructed.instructions).toBe('Be brief.');
    expect(instructed.output_text).toBe('Echo: with instructions');
    const stream = await openai().responses.create({
      model: 'local/echo/chat',
      input: 'streamed',
      instructions: 'Stream it.',
      stream: true,
    });
    let completed: unknown = null;
    let text = '';
    let created: unknown;
    for await (const event of stream) {
      if (event.type === 'response.created') created = event.response.instructions;
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response.usage;
    }
    expect(created).toBe('Stream it.');
    expect(text).toBe('Echo: streamed');
    expect(completed).toMatchObject({ output_tokens: 3 });
  });

  it('anthropic messages with x-api-key: whole and streamed, usage in message_delta', async () => {
    const client = new Anthropic({ apiKey, baseURL: app.baseUrl, maxRetries: 0 });
    const { data, response } = await client.messages
      .create({
        model: 'local/echo/chat',
        max_tokens: 100,
        system: 'be brief',
        messages: [{ role: 'user', content: 'hi claude' }],
      })
      .withResponse();
    expect(data.content[0]).toMatchObject({ type: 'text', text: 'Echo: hi claude' });
    expect(data.stop_reason).toBe('end_turn');
    await settled(response.headers.get('x-service-task-id')!);
    const stream = client.messages.stream({
      model: 'local/echo/chat',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'streaming claude' }],
    });
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'text', text: 'Echo: streaming claude' });
    expect(final.usage.output_tokens).toBe(4);
  });

  it('google generateContent with x-goog-api-key: whole and streamed', async () => {
    const client = new GoogleGenAI({
      apiKey,
      apiVersion: 'v1beta',
      httpOptions: { baseUrl: app.baseUrl, fetch: globalThis.fetch } as never,
    });
    const whole = await client.models.generateContent({ model: 'local/echo/chat', contents: 'hi gemini' });
    expect(whole.text).toBe('Echo: hi gemini');
    expect(whole.usageMetadata?.candidatesTokenCount).toBe(4);
    let text = '';
    for await (const chunk of await client.models.generateContentStream({
      model: 'local/echo/chat',
      contents: 'stream gemini',
    })) {
      text += chunk.text ?? '';
    }
    expect(text).toBe('Echo: stream gemini');
  });

  it('google generateContent as the SDK calls it by default, on /v1/models/...: whole and streamed, usage, task settled', async () => {
    // No apiVersion: @google/genai 3.x then calls /v1 (GOOGLE_AI_API_DEFAULT_VERSION), not /v1beta. The fetch
    // is the global one (Jest's sandbox hides the dispatcher the SDK looks up), recording where each call went.
    const paths: string[] = [];
    const client = new GoogleGenAI({
      apiKey,
      httpOptions: {
        baseUrl: app.baseUrl,
        fetch: (input: string | URL | Request, init?: RequestInit) => {
          const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input : input.url);
          paths.push(`${url.pathname}${url.search}`);
          return globalThis.fetch(input, init);
        },
      } as never,
    });
    const whole = await client.models.generateContent({ model: 'local/echo/chat', contents: 'hi gemini v1' });
    expect(paths).toEqual(['/v1/models/local/echo/chat:generateContent']);
    expect(whole.text).toBe('Echo: hi gemini v1');
    expect(whole.candidates?.[0]?.finishReason).toBe('STOP');
    const usage = whole.usageMetadata!;
    expect(usage.candidatesTokenCount).toBeGreaterThan(0);
    expect(usage.totalTokenCount).toBe(usage.promptTokenCount! + usage.candidatesTokenCount!);
    const wholeTask = await settled(whole.sdkHttpResponse!.headers!['x-service-task-id']!);
    expect(wholeTask).toMatchObject({ state: 'succeeded', output: { text: 'Echo: hi gemini v1' } });
    expect((wholeTask['output'] as { usage: Json }).usage).toMatchObject({
      prompt_tokens: usage.promptTokenCount,
      completion_tokens: usage.candidatesTokenCount,
    });
    expect(Number(wholeTask['cost'])).toBeGreaterThan(0);

    let text = '';
    let last: Awaited<ReturnType<typeof client.models.generateContent>> | undefined;
    for await (const chunk of await client.models.generateContentStream({
      model: 'local/echo/chat',
      contents: 'stream gemini v1',
    })) {
      text += chunk.text ?? '';
      last = chunk;
    }
    expect(paths.at(-1)).toBe('/v1/models/local/echo/chat:streamGenerateContent?alt=sse');
    expect(text).toBe('Echo: stream gemini v1');
    expect(last?.candidates?.[0]?.finishReason).toBe('STOP');
    const streamedUsage = last!.usageMetadata!;
    const streamedTask = await settled(last!.sdkHttpResponse!.headers!['x-service-task-id']!);
    expect(streamedTask).toMatchObject({ state: 'succeeded', output: { text: 'Echo: stream gemini v1' } });
    expect((streamedTask['output'] as { usage: Json }).usage).toMatchObject({
      prompt_tokens: streamedUsage.promptTokenCount,
      completion_tokens: streamedUsage.candidatesTokenCount,
    });

    // apiVersion 'v1' said outright is the same path; an unknown model is Google's 404, which the SDK reads.
    const explicit = new GoogleGenAI({
      apiKey,
      httpOptions: { baseUrl: app.baseUrl, apiVersion: 'v1', fetch: globalThis.fetch } as never,
    });
    const missing = await explicit.models
      .generateContent({ model: 'nobody/none/chat', contents: 'x' })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).status).toBe(404);
    expect(JSON.parse((missing as ApiError).message)).toMatchObject({
      error: { code: 404, status: 'NOT_FOUND' },
    });
  });

  it('openai videos: create a video task, poll it, download its content', async () => {
    const client = openai();
    const { data: video, response } = await client.videos
      .create({
        model: 'local/reel',
        prompt: 'a short reel',
        seconds: '4' as never,
        size: '320x240' as never,
      })
      .withResponse();
    expect(video).toMatchObject({ object: 'video', model: 'local/reel', seconds: '4', size: '320x240' });
    expect(video.id).toBe(response.headers.get('x-service-task-id'));
    let current = video;
    const until = Date.now() + 30_000;
    while (current.status !== 'completed') {
      if (current.status === 'failed' || Date.now() > until) throw new Error(JSON.stringify(current));
      await new Promise((r) => setTimeout(r, 100));
      current = await client.videos.retrieve(video.id);
    }
    expect(current.progress).toBe(100);
    const content = await client.videos.downloadContent(video.id);
    const bytes = Buffer.from(await content.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    const task = await settled(video.id);
    expect(task).toMatchObject({ state: 'succeeded', cost: task['estimatedCost'] });

    const notVideo = await client.videos
      .create({ model: 'local/sketch', prompt: 'x' })
      .catch((error: unknown) => error);
    expect(notVideo).toMatchObject({ status: 400, param: 'model' });
    const missing = await client.videos
      .retrieve('job_01J0000000000000000000000Z')
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
  });
});
