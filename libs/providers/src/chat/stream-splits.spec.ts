/**
 * Chunk boundaries carry no meaning: for each wire format, a realistic complete stream gives the same canonical
 * events whether its bytes arrive whole, one byte at a time, in random splits (biased towards the hard places:
 * inside a multi-byte UTF-8 character and between a CR and its LF) or over HTTP in those splits.
 */
import fc from 'fast-check';
import { FakeUpstream, decodeChunks, drain, splitAt } from '../testing/fake-upstream';
import { AnthropicMessagesAdapter } from './anthropic-messages.adapter';
import { AnthropicMessagesDecoder } from './anthropic-messages.decoder';
import type { ChatAdapter, ChatAdapterConfig, ChatEvent, ChatRequest } from './chat-adapter';
import { GeminiGenerateAdapter } from './gemini-generate.adapter';
import { GeminiGenerateDecoder } from './gemini-generate.decoder';
import { OpenAiChatAdapter } from './openai-chat.adapter';
import { OpenAiChatDecoder } from './openai-chat.decoder';
import type { FrameDecoder } from './upstream-stream';

/** One SSE frame with the given line end between its lines and after it. */
const frame = (eol: string, data: unknown, event?: string): string =>
  `${event ? `event: ${event}${eol}` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}${eol}${eol}`;

/**
 * A frame whose JSON is sent on two `data:` lines (the format joins them with a newline, which JSON reads as
 * space): a line end taken for two would tear it into two frames that are not JSON.
 */
const twoLineFrame = (eol: string, data: unknown, event?: string): string => {
  const json = JSON.stringify(data);
  const cut = json.indexOf(',') + 1;
  return `${event ? `event: ${event}${eol}` : ''}data: ${json.slice(0, cut)}${eol}data: ${json.slice(cut)}${eol}${eol}`;
};

/** Deltas whose bytes are 2, 3 and 4 long a character, and a ZWJ emoji sequence cut between two deltas. */
const TEXT = ['Caf', 'é ', '日本', '語 🙂 ', '👩', '\u200d💻'];
const TEXT_EVENTS: ChatEvent[] = TEXT.map((delta) => ({ type: 'text', delta }));
/** Tool arguments with multi-byte characters, sent in fragments that are not valid JSON on their own. */
const ARGS = ['{"city":', ' "Zürich', '", "note": "🌧', ' 東京"}'];

interface WireFormat {
  readonly name: string;
  /** The whole stream as the upstream sends it, lines ended by `eol`. */
  stream(eol: string): string;
  readonly events: ChatEvent[];
  decoder(): FrameDecoder;
  adapter(config: ChatAdapterConfig): ChatAdapter;
}

const openAi: WireFormat = {
  name: 'OpenAI-compatible',
  stream: (eol) => {
    const chunk = (delta: unknown, finish: string | null = null): string =>
      frame(eol, {
        id: 'c1',
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    return [
      `: OPENROUTER PROCESSING${eol}${eol}`,
      chunk({ role: 'assistant', content: '' }),
      twoLineFrame(eol, {
        id: 'c1',
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { reasoning_content: 'réfléchir…' }, finish_reason: null }],
      }),
      ...TEXT.map((content) => chunk({ content })),
      chunk({
        tool_calls: [
          { index: 0, id: 'call_1', type: 'function', function: { name: 'météo', arguments: '' } },
        ],
      }),
      ...ARGS.map((part) => chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] })),
      chunk({}, 'tool_calls'),
      frame(eol, {
        id: 'c1',
        choices: [],
        usage: {
          prompt_tokens: 31,
          completion_tokens: 17,
          prompt_tokens_details: { cached_tokens: 8 },
          completion_tokens_details: { reasoning_tokens: 4 },
        },
      }),
      frame(eol, '[DONE]'),
    ].join('');
  },
  events: [
    { type: 'reasoning', delta: 'réfléchir…' },
    ...TEXT_EVENTS,
    { type: 'tool_call', index: 0, id: 'call_1', name: 'météo', argumentsDelta: '' },
    ...ARGS.map((argumentsDelta): ChatEvent => ({ type: 'tool_call', index: 0, argumentsDelta })),
    { type: 'usage', inputTokens: 31, cachedInputTokens: 8, outputTokens: 17, reasoningTokens: 4 },
    { type: 'finish', reason: 'tool_calls' },
  ],
  decoder: () => new OpenAiChatDecoder(),
  adapter: (config) => new OpenAiChatAdapter(config),
};

const anthropic: WireFormat = {
  name: 'Anthropic Messages',
  stream: (eol) => {
    const event = (type: string, data: Record<string, unknown>): string =>
      frame(eol, { type, ...data }, type);
    return [
      event('message_start', {
        message: {
          id: 'msg_1',
          role: 'assistant',
          usage: { input_tokens: 12, cache_read_input_tokens: 5, output_tokens: 1 },
        },
      }),
      event('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
      twoLineFrame(
        eol,
        { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'réfléchir…' } },
        'content_block_delta',
      ),
      event('content_block_stop', { index: 0 }),
      event('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
      event('ping', {}),
      ...TEXT.map((text) => event('content_block_delta', { index: 1, delta: { type: 'text_delta', text } })),
      event('content_block_stop', { index: 1 }),
      event('content_block_start', {
        index: 2,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'météo', input: {} },
      }),
      ...ARGS.map((partial_json) =>
        event('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json } }),
      ),
      event('content_block_stop', { index: 2 }),
      event('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 23 } }),
      event('message_stop', {}),
    ].join('');
  },
  events: [
    { type: 'reasoning', delta: 'réfléchir…' },
    ...TEXT_EVENTS,
    { type: 'tool_call', index: 0, id: 'toolu_1', name: 'météo', argumentsDelta: '' },
    ...ARGS.map((argumentsDelta): ChatEvent => ({ type: 'tool_call', index: 0, argumentsDelta })),
    { type: 'usage', inputTokens: 17, cachedInputTokens: 5, outputTokens: 23, reasoningTokens: 0 },
    { type: 'finish', reason: 'tool_calls' },
  ],
  decoder: () => new AnthropicMessagesDecoder(),
  adapter: (config) => new AnthropicMessagesAdapter(config),
};

const gemini: WireFormat = {
  name: 'Gemini streamGenerateContent',
  stream: (eol) => {
    const chunk = (parts: unknown[], extra: Record<string, unknown> = {}): string =>
      frame(eol, {
        candidates: [{ content: { role: 'model', parts }, index: 0 }],
        modelVersion: 'gemini-x',
        ...extra,
      });
    const usageMetadata = {
      promptTokenCount: 40,
      cachedContentTokenCount: 16,
      candidatesTokenCount: 9,
      thoughtsTokenCount: 6,
    };
    return [
      twoLineFrame(eol, {
        candidates: [
          { content: { role: 'model', parts: [{ text: 'réfléchir…', thought: true }] }, index: 0 },
        ],
      }),
      ...TEXT.map((text) => chunk([{ text }])),
      frame(eol, {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { id: 'fc_1', name: 'météo', args: { city: 'Zürich', note: '🌧 東京' } } },
              ],
            },
            finishReason: 'STOP',
          },
        ],
        usageMetadata,
      }),
    ].join('');
  },
  events: [
    { type: 'reasoning', delta: 'réfléchir…' },
    ...TEXT_EVENTS,
    {
      type: 'tool_call',
      index: 0,
      id: 'fc_1',
      name: 'météo',
      argumentsDelta: '{"city":"Zürich","note":"🌧 東京"}',
    },
    { type: 'usage', inputTokens: 40, cachedInputTokens: 16, outputTokens: 15, reasoningTokens: 6 },
    { type: 'finish', reason: 'tool_calls' },
  ],
  decoder: () => new GeminiGenerateDecoder(),
  adapter: (config) => new GeminiGenerateAdapter(config),
};

const FORMATS = [openAi, anthropic, gemini];
const LINE_ENDS = [
  { name: 'LF', eol: '\n' },
  { name: 'CRLF', eol: '\r\n' },
];

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Offsets where a cut is hardest to get right: inside a UTF-8 character, and between a CR and its LF. */
function hardOffsets(bytes: Uint8Array): number[] {
  const offsets: number[] = [];
  for (let i = 1; i < bytes.length; i++) {
    if ((bytes[i]! & 0xc0) === 0x80 || (bytes[i - 1] === 13 && bytes[i] === 10)) offsets.push(i);
  }
  return offsets;
}

/** Cut points over the whole stream, half of them drawn from the hard offsets. */
const cutsIn = (bytes: Uint8Array, maxLength: number): fc.Arbitrary<number[]> =>
  fc.array(fc.oneof(fc.nat({ max: bytes.length }), fc.constantFrom(...hardOffsets(bytes))), { maxLength });

const REQUEST: ChatRequest = { messages: [{ role: 'user', content: 'Météo à Zürich ?' }] };

describe.each(FORMATS)('$name: chunk boundaries do not change the events', (format) => {
  describe.each(LINE_ENDS)('$name line ends', ({ eol }) => {
    const whole = encode(format.stream(eol));

    it('gives the expected events when fed whole, the same for LF and CRLF', () => {
      expect(decodeChunks(format.decoder(), [whole])).toEqual({ events: format.events });
    });

    it('has hard places to cut: every continuation byte of a multi-byte character, and each CR LF pair', () => {
      const text = format.stream(eol);
      const offsets = hardOffsets(whole);
      const crlf = offsets.filter((i) => whole[i - 1] === 13);
      expect(offsets.length - crlf.length).toBe(whole.length - [...text].length);
      expect(crlf.length).toBe(eol === '\r\n' ? text.split('\r\n').length - 1 : 0);
      expect(text.includes('\n\n')).toBe(eol === '\n');
    });

    it('gives the same events fed byte by byte', () => {
      const bytes = Array.from(whole, (_, i) => whole.subarray(i, i + 1));
      expect(decodeChunks(format.decoder(), bytes)).toEqual({ events: format.events });
    });

    it('gives the same events fed in random splits', () => {
      fc.assert(
        fc.property(cutsIn(whole, 60), (cuts) => {
          expect(decodeChunks(format.decoder(), splitAt(whole, cuts))).toEqual({ events: format.events });
        }),
        { numRuns: 300 },
      );
    });
  });
});

describe('the adapters over HTTP, the body written in random splits', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await FakeUpstream.start();
  });
  afterAll(() => upstream.close());

  it.each(FORMATS)('$name gives the events of the whole-fed stream', async (format) => {
    const adapter = format.adapter({
      baseUrl: upstream.baseUrl,
      apiKey: 'k',
      upstreamModel: 'm',
      timeoutMs: 2000,
    });
    const streams = LINE_ENDS.map(({ eol }) => encode(format.stream(eol)));
    const expected = decodeChunks(format.decoder(), [streams[0]!]);
    expect(expected).toEqual({ events: format.events });
    const requestsBefore = upstream.requests.length;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...streams).chain((whole) => fc.tuple(fc.constant(whole), cutsIn(whole, 20))),
        async ([whole, cuts]) => {
          runs += 1;
          upstream.reply({ chunks: splitAt(whole, cuts) });
          expect(await drain(adapter.chat(REQUEST))).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
    // Each run was a request of its own, answered by its own reply.
    expect(upstream.requests.length - requestsBefore).toBe(runs);
  });
});
