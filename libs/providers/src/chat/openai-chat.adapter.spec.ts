import fc from 'fast-check';
import {
  FakeUpstream,
  decodeChunks,
  drain,
  splitAt,
  sseFrame,
  upstreamFailure,
} from '../testing/fake-upstream';
import type { ChatEvent, ChatRequest } from './chat-adapter';
import { OpenAiChatAdapter } from './openai-chat.adapter';
import { OpenAiChatDecoder } from './openai-chat.decoder';
import { UpstreamError } from './upstream-error';

const REQUEST: ChatRequest = {
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'weather in Paris?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_0', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_0', content: 'sunny' },
  ],
  tools: [
    {
      type: 'function',
      function: { name: 'weather', description: 'forecast', parameters: { type: 'object', properties: {} } },
    },
  ],
  tool_choice: { type: 'function', function: { name: 'weather' } },
  max_tokens: 64,
  temperature: 0.2,
  top_p: 0.9,
  stop: ['END'],
};

const chunk = (delta: unknown, finish: string | null = null): string =>
  sseFrame({
    id: 'c1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
const USAGE = sseFrame({
  id: 'c1',
  choices: [],
  usage: {
    prompt_tokens: 20,
    completion_tokens: 9,
    prompt_tokens_details: { cached_tokens: 8 },
    completion_tokens_details: { reasoning_tokens: 3 },
  },
});
const TEXT_STREAM = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ reasoning_content: 'think' }),
  chunk({ content: 'Sun' }),
  chunk({ content: 'ny' }, 'stop'),
  USAGE,
  'data: [DONE]\n\n',
];
const TEXT_EVENTS: ChatEvent[] = [
  { type: 'reasoning', delta: 'think' },
  { type: 'text', delta: 'Sun' },
  { type: 'text', delta: 'ny' },
  { type: 'usage', inputTokens: 20, cachedInputTokens: 8, outputTokens: 9, reasoningTokens: 3 },
  { type: 'finish', reason: 'stop' },
];
const ARGS = '{"city": "Paris", "unit": "celsius"}';
const TOOL_STREAM = [
  chunk({
    tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'weather', arguments: '' } }],
  }),
  ...ARGS.match(/.{1,3}/g)!.map((part) =>
    chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] }),
  ),
  chunk({}, 'tool_calls'),
  'data: [DONE]\n\n',
];

describe('OpenAiChatAdapter against a fake OpenAI-compatible upstream', () => {
  let upstream: FakeUpstream;
  let adapter: OpenAiChatAdapter;
  beforeEach(async () => {
    upstream = await FakeUpstream.start();
    adapter = new OpenAiChatAdapter({
      baseUrl: `${upstream.baseUrl}/v1/`,
      apiKey: 'sk-test',
      upstreamModel: 'llama3',
      timeoutMs: 2000,
    });
  });
  afterEach(() => upstream.close());

  const failure = (): Promise<UpstreamError> => upstreamFailure(adapter.chat(REQUEST));

  it('streams text, reasoning and usage, and sends the canonical request in the chat completions shape', async () => {
    upstream.reply({ chunks: TEXT_STREAM });
    expect(await drain(adapter.chat(REQUEST))).toEqual({ events: TEXT_EVENTS });
    const [sent] = upstream.requests;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(sent!.headers.authorization).toBe('Bearer sk-test');
    expect(sent!.body).toEqual({
      model: 'llama3',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_0', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_0', content: 'sunny' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            description: 'forecast',
            parameters: { type: 'object', properties: {} },
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      max_tokens: 64,
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END'],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('passes a tool call split across many chunks as fragments by index, finishing with tool_calls', async () => {
    upstream.reply({ chunks: TOOL_STREAM });
    const { events, error } = await drain(adapter.chat(REQUEST));
    expect(error).toBeUndefined();
    expect(events[0]).toEqual({
      type: 'tool_call',
      index: 0,
      id: 'call_1',
      name: 'weather',
      argumentsDelta: '',
    });
    const args = events.map((e) => (e.type === 'tool_call' ? e.argumentsDelta : '')).join('');
    expect(JSON.parse(args)).toEqual({ city: 'Paris', unit: 'celsius' });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
    expect(events.some((e) => e.type === 'usage')).toBe(false);
  });

  it('waits for a slow first byte within timeoutMs, and fails retryable when it is slower', async () => {
    upstream.reply({ firstByteDelayMs: 150, chunks: TEXT_STREAM });
    expect((await drain(adapter.chat(REQUEST))).events).toEqual(TEXT_EVENTS);
    adapter = new OpenAiChatAdapter({
      baseUrl: upstream.baseUrl,
      apiKey: 'k',
      upstreamModel: 'm',
      timeoutMs: 50,
    });
    upstream.reply({ firstByteDelayMs: 400, chunks: TEXT_STREAM });
    const error = await failure();
    expect(error).toMatchObject({ kind: 'retryable', status: undefined });
    expect(error.message).toContain('50 ms');
  });

  it('fails retryable when the connection drops mid-stream or the stream ends without [DONE]', async () => {
    upstream.reply({ chunks: TEXT_STREAM.slice(0, 3), drop: true }, { chunks: TEXT_STREAM.slice(0, 5) });
    const dropped = await drain(adapter.chat(REQUEST));
    expect(dropped.events).toEqual(TEXT_EVENTS.slice(0, 2));
    expect(dropped.error).toMatchObject({ kind: 'retryable' });
    const cut = await drain(adapter.chat(REQUEST));
    expect(cut.events).toEqual(TEXT_EVENTS.slice(0, 3));
    expect(cut.error).toMatchObject({ kind: 'retryable', message: expect.stringContaining('end marker') });
  });

  it('maps 429 with Retry-After and 500 to retryable, keeping the upstream text for the log only', async () => {
    const body = JSON.stringify({
      error: { message: 'Rate limit reached for org-secret', type: 'requests', code: 'rate_limit_exceeded' },
    });
    upstream.reply({ status: 429, headers: { 'retry-after': '2' }, chunks: [body] });
    const limited = await failure();
    expect(limited).toMatchObject({ kind: 'retryable', status: 429, retryAfterMs: 2000, upstreamText: body });
    expect(limited.message).not.toContain('org-secret');
    upstream.reply({ status: 500, chunks: ['{"error":{"message":"boom"}}'] });
    expect(await failure()).toMatchObject({ kind: 'retryable', status: 500, retryAfterMs: undefined });
  });

  it('maps a 400 content policy refusal to rejected and other 4xx to failed', async () => {
    const refusal = {
      error: { message: 'Your request was rejected by our safety system.', code: 'content_policy_violation' },
    };
    upstream.reply(
      { status: 400, chunks: [JSON.stringify(refusal)] },
      { status: 400, chunks: ['{"error":{"message":"max_tokens is too large","code":"invalid_value"}}'] },
      { status: 401, chunks: ['{"error":{"message":"Incorrect API key"}}'] },
    );
    expect(await failure()).toMatchObject({ kind: 'rejected', status: 400 });
    expect(await failure()).toMatchObject({ kind: 'failed', status: 400 });
    expect(await failure()).toMatchObject({ kind: 'failed', status: 401 });
  });

  it('fails on malformed JSON in a frame, and maps an error frame by its code', async () => {
    upstream.reply(
      { chunks: [TEXT_STREAM[2]!, 'data: {"choices": [\n\n', 'data: [DONE]\n\n'] },
      { chunks: [sseFrame({ error: { message: 'overloaded', code: 503 } })] },
    );
    const malformed = await drain(adapter.chat(REQUEST));
    expect(malformed.events).toEqual([{ type: 'text', delta: 'Sun' }]);
    expect(malformed.error).toMatchObject({ kind: 'failed', upstreamText: '{"choices": [' });
    expect((await drain(adapter.chat(REQUEST))).error).toMatchObject({ kind: 'retryable', status: 503 });
  });

  it('fails retryable when nothing listens, and stops with the caller reason when the caller aborts', async () => {
    const closed = new OpenAiChatAdapter({
      baseUrl: 'http://127.0.0.1:1',
      apiKey: 'k',
      upstreamModel: 'm',
      timeoutMs: 2000,
    });
    expect((await drain(closed.chat(REQUEST))).error).toMatchObject({ kind: 'retryable', status: undefined });
    upstream.reply({ firstByteDelayMs: 300, chunks: TEXT_STREAM });
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('client went away')), 30);
    const { error } = await drain(adapter.chat(REQUEST, abort.signal));
    expect(error).not.toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ message: 'client went away' });
  });
});

describe('OpenAiChatDecoder', () => {
  it('gives the same events whether the bytes arrive whole, byte by byte or in random splits', () => {
    const whole = new TextEncoder().encode([...TEXT_STREAM.slice(0, -1), ...TOOL_STREAM].join(''));
    const expected = decodeChunks(new OpenAiChatDecoder(), [whole]);
    expect(expected.error).toBeUndefined();
    const bytes = Array.from(whole, (_, i) => whole.subarray(i, i + 1));
    expect(decodeChunks(new OpenAiChatDecoder(), bytes)).toEqual(expected);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 50 }), (cuts) => {
        expect(decodeChunks(new OpenAiChatDecoder(), splitAt(whole, cuts))).toEqual(expected);
      }),
    );
  });
});
