import fc from 'fast-check';
import { FakeUpstream, decodeChunks, drain, splitAt, upstreamFailure } from '../testing/fake-upstream';
import type { ChatEvent, ChatRequest } from './chat-adapter';
import { GeminiGenerateAdapter } from './gemini-generate.adapter';
import { GeminiGenerateDecoder } from './gemini-generate.decoder';
import { type UpstreamError } from './upstream-error';

const REQUEST: ChatRequest = {
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'weather?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'fc_0', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'fc_0', content: 'sunny' },
  ],
  tools: [
    {
      type: 'function',
      function: { name: 'weather', description: 'forecast', parameters: { type: 'object' } },
    },
  ],
  tool_choice: 'auto',
  max_tokens: 100,
  top_p: 0.8,
};

/** Gemini frames its SSE with CRLF. */
const frame = (data: unknown): string => `data: ${JSON.stringify(data)}\r\n\r\n`;
const chunk = (parts: unknown[], extra: Record<string, unknown> = {}): string =>
  frame({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
    modelVersion: 'gemini-x',
  });
const USAGE = {
  promptTokenCount: 25,
  cachedContentTokenCount: 10,
  candidatesTokenCount: 6,
  thoughtsTokenCount: 4,
  totalTokenCount: 35,
};
const TEXT_STREAM = [
  chunk([{ text: 'pondering', thought: true }]),
  chunk([{ text: 'Sun' }]),
  chunk([{ text: 'ny ☀️' }], { finishReason: 'STOP' }),
  frame({
    candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP' }],
    usageMetadata: USAGE,
  }),
];
const TEXT_EVENTS: ChatEvent[] = [
  { type: 'reasoning', delta: 'pondering' },
  { type: 'text', delta: 'Sun' },
  { type: 'text', delta: 'ny ☀️' },
  { type: 'usage', inputTokens: 25, cachedInputTokens: 10, outputTokens: 10, reasoningTokens: 4 },
  { type: 'finish', reason: 'stop' },
];
const TOOL_STREAM = [
  chunk([{ functionCall: { name: 'weather', args: { city: 'Paris' } } }]),
  chunk([{ functionCall: { id: 'fc_2', name: 'weather', args: { city: 'Oslo' } } }], {
    finishReason: 'STOP',
  }),
];

describe('GeminiGenerateAdapter against a fake Gemini upstream', () => {
  let upstream: FakeUpstream;
  let adapter: GeminiGenerateAdapter;
  beforeEach(async () => {
    upstream = await FakeUpstream.start();
    adapter = new GeminiGenerateAdapter({
      baseUrl: upstream.baseUrl,
      apiKey: 'g-key',
      upstreamModel: 'gemini-x',
      timeoutMs: 2000,
    });
  });
  afterEach(() => upstream.close());

  const failure = (): Promise<UpstreamError> => upstreamFailure(adapter.chat(REQUEST));

  it('streams thoughts, text and usageMetadata, sending the generateContent shape', async () => {
    upstream.reply({ chunks: TEXT_STREAM });
    expect(await drain(adapter.chat(REQUEST))).toEqual({ events: TEXT_EVENTS });
    const [sent] = upstream.requests;
    expect(sent).toMatchObject({
      method: 'POST',
      path: '/v1beta/models/gemini-x:streamGenerateContent?alt=sse',
    });
    expect(sent!.headers['x-goog-api-key']).toBe('g-key');
    expect(sent!.body).toEqual({
      systemInstruction: { parts: [{ text: 'be brief' }] },
      contents: [
        { role: 'user', parts: [{ text: 'weather?' }] },
        { role: 'model', parts: [{ functionCall: { id: 'fc_0', name: 'weather', args: { city: 'Rome' } } }] },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'fc_0', name: 'weather', response: { output: 'sunny' } } }],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            { name: 'weather', description: 'forecast', parametersJsonSchema: { type: 'object' } },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      generationConfig: { maxOutputTokens: 100, topP: 0.8 },
    });
  });

  it('passes whole functionCalls as one fragment each, numbered, and finishes with tool_calls', async () => {
    upstream.reply({ chunks: TOOL_STREAM });
    expect(await drain(adapter.chat(REQUEST))).toEqual({
      events: [
        { type: 'tool_call', index: 0, name: 'weather', argumentsDelta: '{"city":"Paris"}' },
        { type: 'tool_call', index: 1, id: 'fc_2', name: 'weather', argumentsDelta: '{"city":"Oslo"}' },
        { type: 'finish', reason: 'tool_calls' },
      ],
    });
  });

  it('maps MAX_TOKENS to length and SAFETY to content_filter, and a blocked prompt to rejected', async () => {
    upstream.reply(
      { chunks: [chunk([{ text: 'a' }], { finishReason: 'MAX_TOKENS' })] },
      { chunks: [chunk([{ text: 'b' }]), chunk([], { finishReason: 'SAFETY', safetyRatings: [] })] },
      { chunks: [frame({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: USAGE })] },
    );
    expect((await drain(adapter.chat(REQUEST))).events.at(-1)).toEqual({ type: 'finish', reason: 'length' });
    expect((await drain(adapter.chat(REQUEST))).events.at(-1)).toEqual({
      type: 'finish',
      reason: 'content_filter',
    });
    expect(await failure()).toMatchObject({ kind: 'rejected', status: undefined });
  });

  it('waits for a slow first byte, and fails retryable on a mid-stream drop or a stream without finishReason', async () => {
    upstream.reply(
      { firstByteDelayMs: 150, chunks: TEXT_STREAM },
      { chunks: TEXT_STREAM.slice(0, 2), drop: true },
      { chunks: TEXT_STREAM.slice(0, 2) },
    );
    expect((await drain(adapter.chat(REQUEST))).events).toEqual(TEXT_EVENTS);
    const dropped = await drain(adapter.chat(REQUEST));
    expect(dropped.events).toEqual(TEXT_EVENTS.slice(0, 2));
    expect(dropped.error).toMatchObject({ kind: 'retryable' });
    const cut = await drain(adapter.chat(REQUEST));
    expect(cut.events).toEqual(TEXT_EVENTS.slice(0, 2));
    expect(cut.error).toMatchObject({ kind: 'retryable', message: expect.stringContaining('end marker') });
  });

  it('maps 429 (Retry-After or RetryInfo) and 500 to retryable, a 400 safety refusal to rejected, other 4xx to failed', async () => {
    const exhausted = (details: unknown[]): string =>
      JSON.stringify({
        error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED', details },
      });
    const retryInfo = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '27s' };
    upstream.reply(
      { status: 429, headers: { 'retry-after': '3' }, chunks: [exhausted([])] },
      { status: 429, chunks: [exhausted([retryInfo])] },
      { status: 500, chunks: ['{"error":{"code":500,"message":"Internal error","status":"INTERNAL"}}'] },
      {
        status: 400,
        chunks: [
          '{"error":{"code":400,"message":"The prompt was blocked by the safety filter","status":"INVALID_ARGUMENT"}}',
        ],
      },
      {
        status: 400,
        chunks: [
          '{"error":{"code":400,"message":"Invalid value at contents[0]","status":"INVALID_ARGUMENT"}}',
        ],
      },
      {
        status: 403,
        chunks: ['{"error":{"code":403,"message":"API key not valid","status":"PERMISSION_DENIED"}}'],
      },
    );
    expect(await failure()).toMatchObject({ kind: 'retryable', status: 429, retryAfterMs: 3000 });
    expect(await failure()).toMatchObject({ kind: 'retryable', status: 429, retryAfterMs: 27000 });
    expect(await failure()).toMatchObject({ kind: 'retryable', status: 500, retryAfterMs: undefined });
    expect(await failure()).toMatchObject({ kind: 'rejected', status: 400 });
    expect(await failure()).toMatchObject({ kind: 'failed', status: 400 });
    expect(await failure()).toMatchObject({ kind: 'failed', status: 403 });
  });

  it('fails on malformed JSON in a chunk', async () => {
    upstream.reply({
      chunks: [TEXT_STREAM[0]!, 'data: {"candidates": [{"content"\r\n\r\n', TEXT_STREAM[3]!],
    });
    const { events, error } = await drain(adapter.chat(REQUEST));
    expect(events).toEqual(TEXT_EVENTS.slice(0, 1));
    expect(error).toMatchObject({ kind: 'failed', upstreamText: '{"candidates": [{"content"' });
  });
});

describe('GeminiGenerateDecoder', () => {
  it('gives the same events whether the bytes arrive whole, byte by byte or in random splits', () => {
    const whole = new TextEncoder().encode([...TEXT_STREAM.slice(0, 2), ...TOOL_STREAM].join(''));
    const expected = decodeChunks(new GeminiGenerateDecoder(), [whole]);
    expect(expected.error).toBeUndefined();
    expect(expected.events).toHaveLength(5);
    const bytes = Array.from(whole, (_, i) => whole.subarray(i, i + 1));
    expect(decodeChunks(new GeminiGenerateDecoder(), bytes)).toEqual(expected);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 50 }), (cuts) => {
        expect(decodeChunks(new GeminiGenerateDecoder(), splitAt(whole, cuts))).toEqual(expected);
      }),
    );
  });
});
