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
import { AnthropicMessagesAdapter } from './anthropic-messages.adapter';
import { AnthropicMessagesDecoder } from './anthropic-messages.decoder';
import { type UpstreamError } from './upstream-error';

const REQUEST: ChatRequest = {
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'weather?' },
    {
      role: 'assistant',
      content: 'checking',
      tool_calls: [
        { id: 'toolu_0', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'toolu_0', content: 'sunny' },
    { role: 'user', content: 'and Paris?' },
  ],
  tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
  tool_choice: 'required',
  temperature: 0.5,
  stop: ['END'],
};

const event = (type: string, data: Record<string, unknown>): string => sseFrame({ type, ...data }, type);
const START = event('message_start', {
  message: {
    id: 'msg_1',
    role: 'assistant',
    content: [],
    usage: { input_tokens: 12, cache_read_input_tokens: 30, output_tokens: 1 },
  },
});
const STOP = event('message_stop', {});
const TEXT_STREAM = [
  START,
  event('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
  event('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } }),
  event('content_block_stop', { index: 0 }),
  'event: ping\ndata: {"type": "ping"}\n\n',
  event('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
  event('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'Sun' } }),
  event('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'ny' } }),
  event('content_block_stop', { index: 1 }),
  event('message_delta', {
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 7 },
  }),
  STOP,
];
const TEXT_EVENTS: ChatEvent[] = [
  { type: 'reasoning', delta: 'hmm' },
  { type: 'text', delta: 'Sun' },
  { type: 'text', delta: 'ny' },
  { type: 'usage', inputTokens: 42, cachedInputTokens: 30, outputTokens: 7, reasoningTokens: 0 },
  { type: 'finish', reason: 'stop' },
];
const ARGS = '{"city": "Paris"}';
const TOOL_STREAM = [
  START,
  event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Let me look.' } }),
  event('content_block_start', {
    index: 1,
    content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} },
  }),
  ...ARGS.match(/.{1,2}/g)!.map((part) =>
    event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: part } }),
  ),
  event('content_block_stop', { index: 1 }),
  event('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 20 } }),
  STOP,
];

describe('AnthropicMessagesAdapter against a fake Anthropic upstream', () => {
  let upstream: FakeUpstream;
  let adapter: AnthropicMessagesAdapter;
  beforeEach(async () => {
    upstream = await FakeUpstream.start();
    adapter = new AnthropicMessagesAdapter({
      baseUrl: upstream.baseUrl,
      apiKey: 'sk-ant',
      upstreamModel: 'claude-x',
      timeoutMs: 2000,
    });
  });
  afterEach(() => upstream.close());

  const failure = (): Promise<UpstreamError> => upstreamFailure(adapter.chat(REQUEST));

  it('streams thinking, text and usage (cache reads counted as cached input), sending the messages shape', async () => {
    upstream.reply({ chunks: TEXT_STREAM });
    expect(await drain(adapter.chat(REQUEST))).toEqual({ events: TEXT_EVENTS });
    const [sent] = upstream.requests;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(sent!.headers).toMatchObject({ 'x-api-key': 'sk-ant', 'anthropic-version': '2023-06-01' });
    expect(sent!.headers.authorization).toBeUndefined();
    expect(sent!.body).toEqual({
      model: 'claude-x',
      system: 'be brief',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'checking' },
            { type: 'tool_use', id: 'toolu_0', name: 'weather', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_0', content: 'sunny' },
            { type: 'text', text: 'and Paris?' },
          ],
        },
      ],
      tools: [{ name: 'weather', input_schema: { type: 'object' } }],
      tool_choice: { type: 'any' },
      max_tokens: 4096,
      temperature: 0.5,
      stop_sequences: ['END'],
      stream: true,
    });
  });

  it('opens a tool call at tool_use and passes input_json_delta fragments, finishing with tool_calls', async () => {
    upstream.reply({ chunks: TOOL_STREAM });
    const { events, error } = await drain(adapter.chat(REQUEST));
    expect(error).toBeUndefined();
    expect(events.slice(0, 2)).toEqual([
      { type: 'text', delta: 'Let me look.' },
      { type: 'tool_call', index: 0, id: 'toolu_1', name: 'weather', argumentsDelta: '' },
    ]);
    const args = events.map((e) => (e.type === 'tool_call' ? e.argumentsDelta : '')).join('');
    expect(JSON.parse(args)).toEqual({ city: 'Paris' });
    expect(events.slice(-2)).toEqual([
      { type: 'usage', inputTokens: 42, cachedInputTokens: 30, outputTokens: 20, reasoningTokens: 0 },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('waits for a slow first byte, and fails retryable on a mid-stream drop or a stream without message_stop', async () => {
    upstream.reply(
      { firstByteDelayMs: 150, chunks: TEXT_STREAM },
      { chunks: TEXT_STREAM.slice(0, 7), drop: true },
      { chunks: TEXT_STREAM.slice(0, -1) },
    );
    expect((await drain(adapter.chat(REQUEST))).events).toEqual(TEXT_EVENTS);
    const dropped = await drain(adapter.chat(REQUEST));
    expect(dropped.events).toEqual(TEXT_EVENTS.slice(0, 2));
    expect(dropped.error).toMatchObject({ kind: 'retryable' });
    const cut = await drain(adapter.chat(REQUEST));
    expect(cut.events).toEqual(TEXT_EVENTS.slice(0, 3));
    expect(cut.error).toMatchObject({ kind: 'retryable', message: expect.stringContaining('end marker') });
  });

  it('maps 429 with Retry-After and 529 overloaded to retryable, and an overloaded error event too', async () => {
    const limited = JSON.stringify({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down' },
    });
    upstream.reply(
      { status: 429, headers: { 'retry-after': '7' }, chunks: [limited] },
      {
        status: 529,
        chunks: ['{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'],
      },
      { chunks: [START, event('error', { error: { type: 'overloaded_error', message: 'Overloaded' } })] },
    );
    expect(await failure()).toMatchObject({
      kind: 'retryable',
      status: 429,
      retryAfterMs: 7000,
      upstreamText: limited,
    });
    expect(await failure()).toMatchObject({ kind: 'retryable', status: 529 });
    expect(await failure()).toMatchObject({ kind: 'retryable', status: undefined });
  });

  it('maps a 400 content policy refusal to rejected, other 4xx and error events to failed', async () => {
    const refusal = {
      type: 'error',
      error: { type: 'invalid_request_error', message: 'Output blocked by content filtering policy' },
    };
    upstream.reply(
      { status: 400, chunks: [JSON.stringify(refusal)] },
      {
        status: 400,
        chunks: ['{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too big"}}'],
      },
      {
        status: 401,
        chunks: ['{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}'],
      },
      { chunks: [START, event('error', { error: { type: 'invalid_request_error', message: 'bad' } })] },
    );
    expect(await failure()).toMatchObject({ kind: 'rejected', status: 400 });
    expect(await failure()).toMatchObject({ kind: 'failed', status: 400 });
    expect(await failure()).toMatchObject({ kind: 'failed', status: 401 });
    expect(await failure()).toMatchObject({ kind: 'failed', status: undefined });
  });

  it('fails on malformed JSON in an event', async () => {
    upstream.reply({
      chunks: [START, 'event: content_block_delta\ndata: {"type": "content_block_delta",\n\n', STOP],
    });
    expect(await failure()).toMatchObject({
      kind: 'failed',
      upstreamText: '{"type": "content_block_delta",',
    });
  });

  it('refuses to send a conversation whose tool call arguments are not a JSON object', async () => {
    const bad: ChatRequest = {
      messages: [
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 't', type: 'function', function: { name: 'n', arguments: '[1' } }],
        },
      ],
    };
    expect((await drain(adapter.chat(bad))).error).toMatchObject({ kind: 'failed' });
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('AnthropicMessagesDecoder', () => {
  it('gives the same events whether the bytes arrive whole, byte by byte or in random splits', () => {
    const whole = new TextEncoder().encode([...TEXT_STREAM.slice(0, -2), ...TOOL_STREAM.slice(1)].join(''));
    const expected = decodeChunks(new AnthropicMessagesDecoder(), [whole]);
    expect(expected.error).toBeUndefined();
    expect(expected.events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
    const bytes = Array.from(whole, (_, i) => whole.subarray(i, i + 1));
    expect(decodeChunks(new AnthropicMessagesDecoder(), bytes)).toEqual(expected);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 50 }), (cuts) => {
        expect(decodeChunks(new AnthropicMessagesDecoder(), splitAt(whole, cuts))).toEqual(expected);
      }),
    );
  });
});
