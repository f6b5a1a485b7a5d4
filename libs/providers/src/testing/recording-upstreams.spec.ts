import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import {
  RecordingAnthropicUpstream,
  RecordingGeminiUpstream,
  RecordingOpenAiUpstream,
} from './recording-upstreams';
import type { AnswerScript } from './upstream-script';
import {
  readAnthropicMessagesRequest,
  readGeminiGenerateRequest,
  readOpenAiChatRequest,
} from './wire-readers';

/*
 * The fakes against the world: each official SDK is pointed at its fake and must assemble exactly the scripted
 * answer from what the fake streams. The SDKs run over real HTTP on 127.0.0.1.
 */

// Jest's sandbox hides Node's undici dispatcher some SDKs look up on globalThis; each SDK is handed the global
// fetch explicitly, the requests still travel over real HTTP.
const sdkFetch: typeof fetch = (url, init) => fetch(url, init);

const WEATHER_ARGS = '{"city":"Zürich","unit":"celsius","days":[1,2]}';
const TIME_ARGS = '{"zone":"Europe/Zurich"}';

const SCRIPT = {
  reasoning: [{ text: 'The user wants the weather 🌦 and the time.' }],
  text: 'Let me look both up — one moment.',
  toolCalls: [
    { id: 'call_weather', name: 'get_weather', arguments: WEATHER_ARGS },
    { id: 'call_time', name: 'get_time', arguments: TIME_ARGS },
  ],
  finish: 'tool_calls',
  usage: { input: 1200, cachedInput: 1000, output: 180, reasoning: 120 },
} satisfies AnswerScript;

const SIGNED_SCRIPT = {
  ...SCRIPT,
  reasoning: [
    { text: 'First, the weather: a tool call.', signature: 'sig-one==' },
    { text: ['Then ', 'the time.'], signature: 'sig-two==' },
  ],
  redacted: ['EnRlZGFjdGVkIGJ5IHRoZSBzYWZldHkgc3lzdGVt'],
} satisfies AnswerScript;

const TOOLS = [
  {
    name: 'get_weather',
    description: 'The weather of a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string' }, days: { type: 'array' } },
      required: ['city'],
    },
  },
  { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } } } },
];

describe('RecordingOpenAiUpstream through the openai SDK', () => {
  let upstream: RecordingOpenAiUpstream;
  let client: OpenAI;
  beforeEach(async () => {
    upstream = await RecordingOpenAiUpstream.start({ frameGapMs: 0 });
    client = new OpenAI({ apiKey: 'sk-openai', baseURL: upstream.baseUrl, maxRetries: 0, fetch: sdkFetch });
  });
  afterEach(() => upstream.close());

  const params = {
    model: 'gpt-test',
    messages: [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'Weather and time in Zürich?' },
    ],
    tools: TOOLS.map((t) => ({ type: 'function' as const, function: t })),
    max_completion_tokens: 512,
  };

  it('streams chunks from which create({stream: true}) assembles the scripted answer, usage last', async () => {
    upstream.answer(SCRIPT);
    const stream = await client.chat.completions.create({
      ...params,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let reasoning = '';
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    const finishes: (string | null)[] = [];
    const usages: unknown[] = [];
    let roles = 0;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      usages.push(chunk.usage);
      for (const choice of chunk.choices) {
        const delta = choice.delta as typeof choice.delta & { reasoning_content?: string };
        if (delta.role) roles++;
        text += delta.content ?? '';
        reasoning += delta.reasoning_content ?? '';
        for (const call of delta.tool_calls ?? []) {
          const slot = (calls[call.index] ??= { arguments: '' });
          if (call.id) slot.id = call.id;
          if (call.function?.name) slot.name = call.function.name;
          slot.arguments += call.function?.arguments ?? '';
        }
        finishes.push(choice.finish_reason);
      }
    }
    expect(roles).toBe(1);
    expect(reasoning).toBe(SCRIPT.reasoning[0]!.text);
    expect(text).toBe(SCRIPT.text);
    expect(calls).toEqual([
      { id: 'call_weather', name: 'get_weather', arguments: WEATHER_ARGS },
      { id: 'call_time', name: 'get_time', arguments: TIME_ARGS },
    ]);
    expect(finishes.filter((f) => f !== null)).toEqual(['tool_calls']);
    // Every chunk carries `usage: null` but the last one, which has no choices and the counts.
    expect(usages.slice(0, -1).every((u) => u === null)).toBe(true);
    expect(usages.at(-1)).toEqual({
      prompt_tokens: 1200,
      completion_tokens: 180,
      total_tokens: 1380,
      prompt_tokens_details: { cached_tokens: 1000, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 120,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    });
  });

  it('splits each call into a first delta with id and name, then several argument fragments', async () => {
    upstream.answer(SCRIPT);
    const raw = await (
      await sdkFetch(`${upstream.baseUrl}/chat/completions`, post({ ...params, stream: true }))
    ).text();
    const frames = raw.split('\n\n').filter(Boolean);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const deltas = frames
      .slice(0, -1)
      .map(
        (f) => JSON.parse(f.replace(/^data: /, '')) as { choices: { delta: { tool_calls?: unknown[] } }[] },
      )
      .flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(deltas[0]).toEqual({
      index: 0,
      id: 'call_weather',
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    const fragments = deltas.filter((d) => (d as { index: number }).index === 0).slice(1);
    expect(fragments.length).toBeGreaterThan(2);
    expect(fragments[0]).toEqual({ index: 0, function: { arguments: expect.any(String) } });
    // Without include_usage no chunk carries usage at all.
    expect(raw).not.toContain('"usage"');
  });

  it('lets the .stream() helper assemble the final completion with its tool calls', async () => {
    upstream.answer({ ...SCRIPT, reasoning: undefined });
    const completion = await client.chat.completions
      .stream({ ...params, stream_options: { include_usage: true } })
      .finalChatCompletion();
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: SCRIPT.text,
        tool_calls: [
          {
            id: 'call_weather',
            type: 'function',
            function: { name: 'get_weather', arguments: WEATHER_ARGS },
          },
          { id: 'call_time', type: 'function', function: { name: 'get_time', arguments: TIME_ARGS } },
        ],
      },
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 1200, completion_tokens: 180 });
    expect(completion.model).toBe('gpt-test');
  });

  it('records the request as sent, and the reader reads the SDK-built body back', async () => {
    upstream.answer({
      text: 'ok',
      finish: 'stop',
      usage: { input: 3, cachedInput: 0, output: 1, reasoning: 0 },
    });
    await client.chat.completions
      .stream({ ...params, reasoning_effort: 'low', tool_choice: 'auto' })
      .finalChatCompletion();
    const [request] = upstream.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      url: '/v1/chat/completions',
    });
    expect(request!.headers.authorization).toBe('Bearer sk-openai');
    expect(JSON.parse(request!.rawBody.toString('utf8'))).toEqual(request!.body);
    expect(readOpenAiChatRequest(request!.body)).toEqual({
      model: 'gpt-test',
      system: ['Be brief.'],
      turns: [
        {
          role: 'user',
          texts: ['Weather and time in Zürich?'],
          images: [],
          toolCalls: [],
          toolResults: [],
          thinking: [],
        },
      ],
      maxTokens: 512,
      stop: [],
      tools: TOOLS,
      toolChoice: 'auto',
      reasoning: { effort: 'low' },
      stream: true,
      extras: {},
    });
  });

  it('answers a request that does not stream with one chat.completion', async () => {
    upstream.answer({ ...SCRIPT, toolCalls: [], finish: 'length' });
    const completion = await client.chat.completions.create(params);
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'length',
      message: { role: 'assistant', content: SCRIPT.text, reasoning_content: SCRIPT.reasoning[0]!.text },
    });
    expect(completion.usage?.completion_tokens_details?.reasoning_tokens).toBe(120);
  });

  it("answers a scripted failure in OpenAI's error shape", async () => {
    upstream.fail({ status: 429, message: 'Rate limit reached', headers: { 'retry-after': '7' } });
    const error = await client.chat.completions.create(params).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error).toMatchObject({
      status: 429,
      type: 'requests',
      code: 'rate_limit_exceeded',
      error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('7');
  });

  it('reports a streamError inside the stream, which the SDK raises after the content', async () => {
    upstream.answer({ ...SCRIPT, toolCalls: [], streamError: { message: 'The server had an error' } });
    const stream = await client.chat.completions.create({ ...params, stream: true });
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((e: unknown) => e);
    expect(text).toBe(SCRIPT.text);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain('The server had an error');
  });

  it('refuses a script OpenAI-compatible streams cannot carry', () => {
    expect(() => upstream.answer(SIGNED_SCRIPT)).toThrow(/redacted/);
    expect(() => upstream.answer({ ...SCRIPT, reasoning: [{ text: 'x', signature: 's' }] })).toThrow(
      /signature/,
    );
  });

  it("streams reasoning in OpenRouter's `reasoning` field when asked", async () => {
    const other = await RecordingOpenAiUpstream.start({ reasoningField: 'reasoning', splitFrames: true });
    try {
      other.answer({ ...SCRIPT, toolCalls: [], finish: 'stop' });
      const raw = await (
        await sdkFetch(`${other.baseUrl}/chat/completions`, post({ ...params, stream: true }))
      ).text();
      expect(raw).toContain('"reasoning":"');
      expect(raw).not.toContain('reasoning_content');
    } finally {
      await other.close();
    }
  });
});

describe('RecordingAnthropicUpstream through the @anthropic-ai/sdk SDK', () => {
  let upstream: RecordingAnthropicUpstream;
  let client: Anthropic;
  beforeEach(async () => {
    // Each frame in two writes, cut inside its bytes (and so at times inside a UTF-8 character).
    upstream = await RecordingAnthropicUpstream.start({ frameGapMs: 0, splitFrames: true });
    client = new Anthropic({ apiKey: 'sk-ant', baseURL: upstream.baseUrl, maxRetries: 0, fetch: sdkFetch });
  });
  afterEach(() => upstream.close());

  const params = {
    model: 'claude-sonnet-5',
    max_tokens: 4096,
    system: 'Be brief.',
    thinking: { type: 'enabled' as const, budget_tokens: 2048 },
    messages: [{ role: 'user' as const, content: 'Weather and time in Zürich?' }],
    tools: TOOLS.map((t) => ({
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      input_schema: t.parameters as Anthropic.Tool.InputSchema,
    })),
  };

  it('streams events from which messages.stream().finalMessage() assembles the scripted answer', async () => {
    upstream.answer(SIGNED_SCRIPT);
    const message = await client.messages.stream(params).finalMessage();
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'First, the weather: a tool call.', signature: 'sig-one==' },
      { type: 'thinking', thinking: 'Then the time.', signature: 'sig-two==' },
      { type: 'redacted_thinking', data: SIGNED_SCRIPT.redacted[0] },
      { type: 'text', text: SCRIPT.text },
      { type: 'tool_use', id: 'call_weather', name: 'get_weather', input: JSON.parse(WEATHER_ARGS) },
      { type: 'tool_use', id: 'call_time', name: 'get_time', input: JSON.parse(TIME_ARGS) },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.model).toBe('claude-sonnet-5');
    // input_tokens excludes the cache reads: together they are the script's input.
    expect(message.usage).toMatchObject({
      input_tokens: 200,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 0,
      output_tokens: 180,
      output_tokens_details: { thinking_tokens: 120 },
    });
  });

  it('sends the events in the order of the Messages streaming reference, arguments in several fragments', async () => {
    upstream.answer({ ...SIGNED_SCRIPT, redacted: [], toolCalls: SCRIPT.toolCalls.slice(0, 1) });
    const stream = await client.messages.create({ ...params, stream: true });
    const events: Anthropic.RawMessageStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const summary = events.map((e) =>
      e.type === 'content_block_start'
        ? `start:${e.content_block.type}`
        : e.type === 'content_block_delta'
          ? e.delta.type
          : e.type,
    );
    // The SDK yields no ping; every block is started, filled and stopped.
    expect(summary).toEqual([
      'message_start',
      'start:thinking',
      'thinking_delta',
      'thinking_delta',
      'signature_delta',
      'content_block_stop',
      'start:thinking',
      'thinking_delta',
      'thinking_delta',
      'signature_delta',
      'content_block_stop',
      'start:text',
      'text_delta',
      'text_delta',
      'text_delta',
      'content_block_stop',
      'start:tool_use',
      'input_json_delta',
      'input_json_delta',
      'input_json_delta',
      'input_json_delta',
      'input_json_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    upstream.answer(SCRIPT);
    const raw = await (
      await sdkFetch(`${upstream.baseUrl}/v1/messages`, post({ ...params, stream: true }))
    ).text();
    expect(raw.split('\n\n')[1]).toBe('event: ping\ndata: {"type":"ping"}');
  });

  it('records the request as sent, and the reader reads the SDK-built body back', async () => {
    upstream.answer({
      text: 'ok',
      finish: 'stop',
      usage: { input: 3, cachedInput: 0, output: 1, reasoning: 0 },
    });
    await client.messages.stream({ ...params, tool_choice: { type: 'auto' } }).finalMessage();
    const [request] = upstream.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(request!.headers['anthropic-version']).toBe('2026-10-21');
    expect(
      readAnthropicMessagesRequest(request!.body, {
        version: request!.headers['anthropic-version'] as string,
      }),
    ).toEqual({
      model: 'claude-sonnet-5',
      system: ['Be brief.'],
      turns: [
        {
          role: 'user',
          texts: ['Weather and time in Zürich?'],
          images: [],
          toolCalls: [],
          toolResults: [],
          thinking: [],
        },
      ],
      maxTokens: 4096,
      stop: [],
      tools: TOOLS,
      toolChoice: 'auto',
      reasoning: { enabled: true, budgetTokens: 2048 },
      stream: true,
      extras: {},
    });
  });

  it('answers a request that does not stream with one Message', async () => {
    upstream.answer({ ...SIGNED_SCRIPT, finish: 'content_filter' });
    const message = await client.messages.create({ ...params, max_tokens: 1024, thinking: undefined });
    expect(message.stop_reason).toBe('refusal');
    expect(message.content.map((b) => b.type)).toEqual([
      'thinking',
      'thinking',
      'redacted_thinking',
      'text',
      'tool_use',
      'tool_use',
    ]);
    expect(message.usage).toMatchObject({
      input_tokens: 200,
      cache_read_input_tokens: 1000,
      output_tokens: 180,
    });
  });

  it("answers a scripted failure in Anthropic's error shape, with its request id", async () => {
    upstream.fail({ status: 529, message: 'Overloaded' });
    const error = await client.messages.create({ ...params, max_tokens: 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error).toMatchObject({
      status: 529,
      error: { type: 'error', error: { type: 'overloaded_error' } },
    });
    expect((error as InstanceType<typeof Anthropic.APIError>).requestID).toMatch(/^req_rec/);
  });

  it('reports a streamError as an error event, which the SDK raises after the content', async () => {
    upstream.answer({ ...SCRIPT, reasoning: [], toolCalls: [], streamError: { message: 'Overloaded' } });
    const stream = client.messages.stream(params);
    let text = '';
    stream.on('text', (delta) => (text += delta));
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(text).toBe(SCRIPT.text);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(String(error)).toContain('overloaded_error');
  });
});

describe('RecordingGeminiUpstream through the @google/genai SDK', () => {
  let upstream: RecordingGeminiUpstream;
  let ai: GoogleGenAI;
  beforeEach(async () => {
    upstream = await RecordingGeminiUpstream.start({ frameGapMs: 0, splitFrames: true });
    ai = new GoogleGenAI({
      apiKey: 'sk-gemini',
      apiVersion: 'v1beta',
      httpOptions: { baseUrl: upstream.baseUrl, fetch: sdkFetch },
    });
  });
  afterEach(() => upstream.close());

  const params = {
    model: 'gemini-3-flash',
    contents: [{ role: 'user', parts: [{ text: 'Weather and time in Zürich?' }] }],
    config: {
      systemInstruction: 'Be brief.',
      maxOutputTokens: 2048,
      thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 },
      tools: [
        {
          functionDeclarations: TOOLS.map((t) => ({
            ...t,
            parametersJsonSchema: t.parameters,
            parameters: undefined,
          })),
        },
      ],
    },
  };

  it('streams chunks from which generateContentStream yields the scripted answer', async () => {
    upstream.answer({
      ...SIGNED_SCRIPT,
      redacted: [],
      toolCalls: SCRIPT.toolCalls.map((c) => ({ ...c, signature: `ts-${c.id}` })),
    });
    let thoughts = '';
    let text = '';
    const signatures: string[] = [];
    const calls: unknown[] = [];
    const finishes: unknown[] = [];
    const usages: unknown[] = [];
    for await (const chunk of await ai.models.generateContentStream(params)) {
      const candidate = chunk.candidates?.[0];
      for (const part of candidate?.content?.parts ?? []) {
        if (part.thoughtSignature) signatures.push(part.thoughtSignature);
        if (part.thought) thoughts += part.text ?? '';
        else if (part.text !== undefined) text += part.text;
        if (part.functionCall) calls.push(part.functionCall);
      }
      finishes.push(candidate?.finishReason);
      usages.push(chunk.usageMetadata);
      expect(chunk.modelVersion).toBe('gemini-3-flash');
    }
    expect(thoughts).toBe('First, the weather: a tool call.Then the time.');
    expect(text).toBe(SCRIPT.text);
    // Whole calls, arguments parsed, no ids: Gemini does not fragment them nor (by default here) name them.
    expect(calls).toEqual([
      { name: 'get_weather', args: JSON.parse(WEATHER_ARGS) },
      { name: 'get_time', args: JSON.parse(TIME_ARGS) },
    ]);
    expect(signatures).toEqual(['sig-one==', 'sig-two==', 'ts-call_weather', 'ts-call_time']);
    // A turn that calls functions still ends with STOP, on the last chunk only.
    expect(finishes.filter(Boolean)).toEqual(['STOP']);
    expect(finishes.at(-1)).toBe('STOP');
    // Every chunk has the prompt counts; the last one the full counts (candidates exclude the thoughts).
    expect(usages[0]).toMatchObject({ promptTokenCount: 1200, cachedContentTokenCount: 1000 });
    expect(usages.at(-1)).toMatchObject({
      promptTokenCount: 1200,
      cachedContentTokenCount: 1000,
      candidatesTokenCount: 60,
      thoughtsTokenCount: 120,
      totalTokenCount: 1380,
    });
  });

  it('records the request as sent (model in the path, alt=sse), and the reader reads the SDK-built body', async () => {
    upstream.answer({
      text: 'ok',
      finish: 'stop',
      usage: { input: 3, cachedInput: 0, output: 1, reasoning: 0 },
    });
    for await (const _ of await ai.models.generateContentStream(params)) void _;
    const [request] = upstream.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1beta/models/gemini-3-flash:streamGenerateContent',
      url: '/v1beta/models/gemini-3-flash:streamGenerateContent?alt=sse',
    });
    expect(request!.headers['x-goog-api-key']).toBe('sk-gemini');
    expect(RecordingGeminiUpstream.modelOf(request!)).toBe('gemini-3-flash');
    expect(readGeminiGenerateRequest(request!.body)).toEqual({
      system: ['Be brief.'],
      turns: [
        {
          role: 'user',
          texts: ['Weather and time in Zürich?'],
          images: [],
          toolCalls: [],
          toolResults: [],
          thinking: [],
        },
      ],
      maxTokens: 2048,
      stop: [],
      tools: TOOLS,
      reasoning: { budgetTokens: 1024, includeThoughts: true },
      extras: {},
    });
  });

  it('names the calls when asked, and answers generateContent with one response', async () => {
    const named = await RecordingGeminiUpstream.start({ functionCallIds: true, lineEnding: '\n' });
    try {
      const other = new GoogleGenAI({
        apiKey: 'k',
        apiVersion: 'v1beta',
        httpOptions: { baseUrl: named.baseUrl, fetch: sdkFetch },
      });
      named.answer(SCRIPT, { ...SCRIPT, finish: 'length' });
      const calls: unknown[] = [];
      for await (const chunk of await other.models.generateContentStream(params)) {
        calls.push(...(chunk.functionCalls ?? []));
      }
      expect(calls).toEqual([
        { id: 'call_weather', name: 'get_weather', args: JSON.parse(WEATHER_ARGS) },
        { id: 'call_time', name: 'get_time', args: JSON.parse(TIME_ARGS) },
      ]);
      const response = await other.models.generateContent(params);
      expect(response.candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
      const parts = response.candidates?.[0]?.content?.parts ?? [];
      expect(parts.filter((p) => p.text !== undefined && !p.thought).map((p) => p.text)).toEqual([
        SCRIPT.text,
      ]);
      expect(response.usageMetadata).toMatchObject({ candidatesTokenCount: 60, thoughtsTokenCount: 120 });
    } finally {
      await named.close();
    }
  });

  it('ends a filtered answer with SAFETY and no content', async () => {
    upstream.answer({
      text: 'Here is how',
      finish: 'content_filter',
      usage: { input: 5, cachedInput: 0, output: 2, reasoning: 0 },
    });
    const chunks = [];
    for await (const chunk of await ai.models.generateContentStream(params)) chunks.push(chunk);
    expect(chunks.at(-1)?.candidates?.[0]).toMatchObject({ finishReason: 'SAFETY' });
    expect(chunks.at(-1)?.candidates?.[0]?.content).toBeUndefined();
    // Zero counts are left out (proto3 JSON), here the cached and thought counts.
    expect(chunks.at(-1)?.usageMetadata).toEqual({
      promptTokenCount: 5,
      candidatesTokenCount: 2,
      totalTokenCount: 7,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 5 }],
    });
  });

  it("answers a scripted failure in Google's error shape", async () => {
    upstream.fail({ status: 429, message: 'Resource has been exhausted' });
    const error = await ai.models.generateContentStream(params).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect(JSON.parse((error as ApiError).message)).toEqual({
      error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' },
    });
  });

  it('reports a streamError as an error chunk, which the SDK raises', async () => {
    upstream.answer({
      ...SCRIPT,
      reasoning: [],
      toolCalls: [],
      streamError: { message: 'The model is overloaded' },
    });
    let text = '';
    const error = await (async () => {
      for await (const chunk of await ai.models.generateContentStream(params)) text += chunk.text ?? '';
    })().catch((e: unknown) => e);
    expect(text).toBe(SCRIPT.text);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
  });

  it('writes CRLF-delimited SSE events, and a JSON array without alt=sse', async () => {
    upstream.answer(SCRIPT, SCRIPT);
    const url = `${upstream.baseUrl}/v1beta/models/gemini-3-flash:streamGenerateContent`;
    const sse = await (await sdkFetch(`${url}?alt=sse`, post({ contents: params.contents }))).text();
    expect(sse.startsWith('data: {"candidates":')).toBe(true);
    expect(sse.endsWith('}\r\n\r\n')).toBe(true);
    const array = JSON.parse(
      await (await sdkFetch(url, post({ contents: params.contents }))).text(),
    ) as unknown[];
    expect(array.length).toBe(sse.split('\r\n\r\n').filter(Boolean).length);
  });
});

describe('every recording upstream', () => {
  it('answers an unknown path with a 404 that consumes no script, and an empty queue with a 500', async () => {
    const upstream = await RecordingOpenAiUpstream.start();
    try {
      upstream.answer(SCRIPT);
      expect((await sdkFetch(`${upstream.origin}/v1/completions`, post({}))).status).toBe(404);
      expect(upstream.pending).toBe(1);
      expect(
        (await sdkFetch(`${upstream.baseUrl}/chat/completions`, post({ model: 'm', messages: [] }))).status,
      ).toBe(200);
      const empty = await sdkFetch(
        `${upstream.baseUrl}/chat/completions`,
        post({ model: 'm', messages: [] }),
      );
      expect(empty.status).toBe(500);
      expect(await empty.json()).toMatchObject({
        error: { message: expect.stringContaining('no answer scripted') },
      });
      expect(upstream.requests.map((r) => r.path)).toEqual([
        '/v1/completions',
        '/v1/chat/completions',
        '/v1/chat/completions',
      ]);
    } finally {
      await upstream.close();
    }
  });

  it('holds a cut stream open until the client goes away, and drops one mid-stream', async () => {
    const upstream = await RecordingAnthropicUpstream.start();
    try {
      upstream.answer({ ...SCRIPT, cut: 'hold' }, { ...SCRIPT, cut: 'drop' });
      const controller = new AbortController();
      const held = await sdkFetch(`${upstream.baseUrl}/v1/messages`, {
        ...post({ model: 'm', max_tokens: 5, messages: [], stream: true }),
        signal: controller.signal,
      });
      const reader = held.body!.getReader();
      let seen = '';
      while (!seen.includes('content_block_stop'))
        seen += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      await expect(reader.read()).rejects.toThrow();
      const dropped = await sdkFetch(
        `${upstream.baseUrl}/v1/messages`,
        post({ model: 'm', max_tokens: 5, messages: [], stream: true }),
      );
      const text = await dropped.text().catch((e: unknown) => `failed: ${String(e)}`);
      expect(text).not.toContain('message_stop');
    } finally {
      await upstream.close();
    }
  });
});

function post(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
