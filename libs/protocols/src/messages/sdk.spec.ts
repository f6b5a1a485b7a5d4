import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import type { ChatEvent } from '@gen/contracts';
import { aggregate, ProtocolError } from '../canonical/text-input';
import { writeMessagesError } from './error';
import { mapMessagesRequest } from './request';
import { writeMessagesResponse } from './response';
import { MessagesStreamWriter } from './stream';

/**
 * The official `@anthropic-ai/sdk` client against a local HTTP server answering with this folder's writers: the
 * SDK's SSE decoder and MessageStream accumulator read our frames as they would read Anthropic's.
 */
type Reply = (response: ServerResponse) => void;

let server: Server;
let reply: Reply;
let client: Anthropic;
const received: { url: string; body: unknown }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ url: request.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      reply(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received.length = 0;
});

const BASE = { id: 'req_9', model: 'anthropic/claude-sonnet-4', created: 1_700_000_000 };
const USAGE: ChatEvent = {
  type: 'usage',
  inputTokens: 120,
  cachedInputTokens: 100,
  outputTokens: 40,
  reasoningTokens: 0,
};
const PARAMS = { model: BASE.model, max_tokens: 256, messages: [{ role: 'user' as const, content: 'Hi' }] };

function json(status: number, body: unknown): Reply {
  return (response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
}

/** Replays the writer's frames for `events`, one write per frame, the way the service streams them. */
function replayStream(events: ChatEvent[]): Reply {
  return (response) => {
    const writer = new MessagesStreamWriter(BASE);
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const frame of writer.start()) response.write(frame);
    for (const event of events) for (const frame of writer.event(event)) response.write(frame);
    for (const frame of writer.end(aggregate(events, BASE))) response.write(frame);
    response.end();
  };
}

const TEXT_EVENTS: ChatEvent[] = [
  { type: 'reasoning', delta: 'A greeting; ' },
  { type: 'reasoning', delta: 'reply kindly.' },
  { type: 'text', delta: 'Hello' },
  { type: 'text', delta: ' there!' },
  USAGE,
  { type: 'finish', reason: 'stop' },
];

const TOOL_EVENTS: ChatEvent[] = [
  { type: 'text', delta: 'Let me check.' },
  { type: 'tool_call', index: 0, id: 'toolu_a', name: 'get_weather', argumentsDelta: '{"loca' },
  { type: 'tool_call', index: 0, argumentsDelta: 'tion": "Paris"}' },
  { type: 'tool_call', index: 1, id: 'toolu_b', name: 'get_time', argumentsDelta: '' },
  { type: 'tool_call', index: 1, argumentsDelta: '{"tz":"CET"}' },
  USAGE,
  { type: 'finish', reason: 'tool_calls' },
];

/** Claude's extended thinking with a tool: a signed thinking block, a redacted one, text, a tool call. */
const SIGNED_EVENTS: ChatEvent[] = [
  { type: 'reasoning', delta: 'Paris weather: ' },
  { type: 'reasoning', delta: 'call the tool.' },
  { type: 'reasoning_signature', signature: 'EqQBCkgIARABGAIiQL2UoU0b1OHYi' },
  { type: 'redacted_reasoning', data: 'EmwKAhgBEgy3va3pzix' },
  { type: 'text', delta: 'Checking.' },
  { type: 'tool_call', index: 0, id: 'toolu_a', name: 'get_weather', argumentsDelta: '{"city":"Paris"}' },
  USAGE,
  { type: 'finish', reason: 'tool_calls' },
];
const SIGNED_CONTENT = [
  { type: 'thinking', thinking: 'Paris weather: call the tool.', signature: 'EqQBCkgIARABGAIiQL2UoU0b1OHYi' },
  { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
  { type: 'text', text: 'Checking.' },
  { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: { city: 'Paris' } },
];

describe('Messages writers read by the @anthropic-ai/sdk client', () => {
  it('non-streamed: messages.create returns our Message with thinking, text and Anthropic usage', async () => {
    reply = json(200, writeMessagesResponse(aggregate(TEXT_EVENTS, BASE)));
    const message = await client.messages.create(PARAMS);
    expect(received[0]).toEqual({ url: '/v1/messages', body: PARAMS });
    expect(message).toEqual({
      id: 'msg_req_9',
      type: 'message',
      role: 'assistant',
      model: BASE.model,
      content: [
        { type: 'thinking', thinking: 'A greeting; reply kindly.', signature: '' },
        { type: 'text', text: 'Hello there!' },
      ],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: 20,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 100,
        output_tokens: 40,
      },
    });
  });

  it('non-streamed: tool calls are tool_use blocks with parsed input and stop_reason tool_use', async () => {
    reply = json(200, writeMessagesResponse(aggregate(TOOL_EVENTS, BASE)));
    const message = await client.messages.create(PARAMS);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: { location: 'Paris' } },
      { type: 'tool_use', id: 'toolu_b', name: 'get_time', input: { tz: 'CET' } },
    ]);
  });

  it.each([
    ['length', 'max_tokens'],
    ['content_filter', 'refusal'],
  ] as const)('non-streamed: finish %s is stop_reason %s', async (finish, stopReason) => {
    const events: ChatEvent[] = [{ type: 'text', delta: 'x' }, USAGE, { type: 'finish', reason: finish }];
    reply = json(200, writeMessagesResponse(aggregate(events, BASE)));
    expect((await client.messages.create(PARAMS)).stop_reason).toBe(stopReason);
  });

  it('streamed (create with stream: true): the raw events in the real order', async () => {
    reply = replayStream(TEXT_EVENTS);
    const stream = await client.messages.create({ ...PARAMS, stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    expect(
      events.map((event) => (event.type === 'content_block_delta' ? event.delta.type : event.type)),
    ).toEqual([
      'message_start',
      'content_block_start',
      'thinking_delta',
      'thinking_delta',
      'content_block_stop',
      'content_block_start',
      'text_delta',
      'text_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events.at(-2)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: {
        input_tokens: 20,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 100,
        output_tokens: 40,
      },
    });
    expect(received[0]?.body).toMatchObject({ stream: true });
  });

  it('streamed (messages.stream): the MessageStream rebuilds thinking, text and the final usage', async () => {
    reply = replayStream(TEXT_EVENTS);
    const stream = client.messages.stream(PARAMS);
    const texts: string[] = [];
    const thinking: string[] = [];
    stream.on('text', (delta) => texts.push(delta));
    stream.on('thinking', (delta) => thinking.push(delta));
    const message = await stream.finalMessage();
    expect(texts).toEqual(['Hello', ' there!']);
    expect(thinking).toEqual(['A greeting; ', 'reply kindly.']);
    expect(await stream.finalText()).toBe('Hello there!');
    expect(message.id).toBe('msg_req_9');
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'A greeting; reply kindly.', signature: '' },
      { type: 'text', text: 'Hello there!' },
    ]);
    expect(message.usage).toEqual({
      input_tokens: 20,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 100,
      output_tokens: 40,
    });
  });

  it('streamed (messages.stream): tool_use blocks get their input from the input_json_delta fragments', async () => {
    reply = replayStream(TOOL_EVENTS);
    const stream = client.messages.stream(PARAMS);
    const partials: unknown[] = [];
    stream.on('inputJson', (delta, snapshot) => partials.push([delta, snapshot]));
    const message = await stream.finalMessage();
    expect(partials).toEqual([
      ['{"loca', {}],
      ['tion": "Paris"}', { location: 'Paris' }],
      ['{"tz":"CET"}', { tz: 'CET' }],
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: { location: 'Paris' } },
      { type: 'tool_use', id: 'toolu_b', name: 'get_time', input: { tz: 'CET' } },
    ]);
    expect(message.usage.output_tokens).toBe(40);
  });

  it('non-streamed: signed thinking and redacted thinking blocks come first, as the upstream sent them', async () => {
    reply = json(200, writeMessagesResponse(aggregate(SIGNED_EVENTS, BASE)));
    expect((await client.messages.create(PARAMS)).content).toEqual(SIGNED_CONTENT);
  });

  it('streamed: a signature_delta closes the thinking block; a redacted block starts whole', async () => {
    reply = replayStream(SIGNED_EVENTS);
    const stream = await client.messages.create({ ...PARAMS, stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    expect(
      events.map((event) =>
        event.type === 'content_block_delta'
          ? event.delta.type
          : event.type === 'content_block_start'
            ? `start ${event.content_block.type}`
            : event.type,
      ),
    ).toEqual([
      'message_start',
      'start thinking',
      'thinking_delta',
      'thinking_delta',
      'signature_delta',
      'content_block_stop',
      'start redacted_thinking',
      'content_block_stop',
      'start text',
      'text_delta',
      'content_block_stop',
      'start tool_use',
      'input_json_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[1]).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    expect(events[4]).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'signature_delta', signature: 'EqQBCkgIARABGAIiQL2UoU0b1OHYi' },
    });
  });

  it('streamed (messages.stream): finalMessage has the signed blocks, and sent back they map unchanged', async () => {
    reply = replayStream(SIGNED_EVENTS);
    const stream = client.messages.stream(PARAMS);
    const signatures: string[] = [];
    stream.on('signature', (signature) => signatures.push(signature));
    const message = await stream.finalMessage();
    expect(message.content).toEqual(SIGNED_CONTENT);
    expect(signatures).toEqual(['EqQBCkgIARABGAIiQL2UoU0b1OHYi']);

    // The tool loop of Anthropic's docs: the assistant turn goes back as it came, then the tool result.
    reply = json(200, writeMessagesResponse(aggregate([{ type: 'text', delta: 'Sunny.' }, USAGE], BASE)));
    await client.messages.create({
      ...PARAMS,
      messages: [
        ...PARAMS.messages,
        { role: 'assistant', content: message.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: '21 C' }] },
      ],
    });
    const mapped = mapMessagesRequest(received[1]!.body);
    expect(mapped.input.messages[1]).toEqual({
      role: 'assistant',
      content: 'Checking.',
      reasoning_content: 'Paris weather: call the tool.',
      thinking_blocks: SIGNED_CONTENT.slice(0, 2),
      tool_calls: [
        { id: 'toolu_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      ],
    });
  });

  it('streamed: reasoning nobody signed is a thinking block with an empty signature, whole or streamed', async () => {
    const events: ChatEvent[] = [
      { type: 'reasoning', delta: 'signed' },
      { type: 'reasoning_signature', signature: 'sig' },
      { type: 'reasoning', delta: 'unsigned' },
      USAGE,
      { type: 'finish', reason: 'length' },
    ];
    const whole = [
      { type: 'thinking', thinking: 'signed', signature: 'sig' },
      { type: 'thinking', thinking: 'unsigned', signature: '' },
      { type: 'text', text: '' },
    ];
    reply = replayStream(events);
    expect((await client.messages.stream(PARAMS).finalMessage()).content).toEqual(whole);
    expect(writeMessagesResponse(aggregate(events, BASE))['content']).toEqual(whole);
  });

  it('streamed: interleaved tool fragments each reach their own block', async () => {
    reply = replayStream([
      { type: 'tool_call', index: 0, id: 'toolu_a', name: 'a', argumentsDelta: '{"x":' },
      { type: 'tool_call', index: 1, id: 'toolu_b', name: 'b', argumentsDelta: '{"y":' },
      { type: 'tool_call', index: 0, argumentsDelta: '1}' },
      { type: 'tool_call', index: 1, argumentsDelta: '2}' },
      USAGE,
      { type: 'finish', reason: 'tool_calls' },
    ]);
    const message = await client.messages.stream(PARAMS).finalMessage();
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'toolu_a', name: 'a', input: { x: 1 } },
      { type: 'tool_use', id: 'toolu_b', name: 'b', input: { y: 2 } },
    ]);
  });

  it('streamed: an empty answer still has one text block', async () => {
    reply = replayStream([USAGE, { type: 'finish', reason: 'stop' }]);
    const message = await client.messages.stream(PARAMS).finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: '' }]);
  });

  it('streamed: a failure mid-stream is event: error, raised by the SDK with its type', async () => {
    reply = (response) => {
      const writer = new MessagesStreamWriter(BASE);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const frame of writer.start()) response.write(frame);
      for (const frame of writer.event({ type: 'text', delta: 'Hel' })) response.write(frame);
      const failure = new ProtocolError(503, 'upstream_failed', 'server.unavailable');
      for (const frame of writer.error(failure, 'The service is temporarily unavailable.'))
        response.write(frame);
      response.end();
    };
    const stream = client.messages.stream(PARAMS);
    const texts: string[] = [];
    stream.on('text', (delta) => texts.push(delta));
    const failure = await stream.finalMessage().catch((error: unknown) => error);
    expect(texts).toEqual(['Hel']);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect(failure).toMatchObject({
      type: 'overloaded_error',
      error: {
        type: 'error',
        error: { type: 'overloaded_error', message: 'The service is temporarily unavailable.' },
      },
    });
  });

  it.each([
    [400, Anthropic.BadRequestError, 'invalid_request_error'],
    [401, Anthropic.AuthenticationError, 'authentication_error'],
    [403, Anthropic.PermissionDeniedError, 'permission_error'],
    [404, Anthropic.NotFoundError, 'not_found_error'],
    [429, Anthropic.RateLimitError, 'rate_limit_error'],
    [500, Anthropic.InternalServerError, 'api_error'],
  ])(
    'an error body with status %d: the SDK raises %p with our type and message',
    async (status, kind, type) => {
      const error = new ProtocolError(
        status,
        'invalid_request',
        'request.invalid_field',
        { field: 'x' },
        'x',
      );
      reply = json(status, writeMessagesError(error, 'Invalid value for field x.'));
      const failure = await client.messages.create(PARAMS).catch((caught: unknown) => caught);
      expect(failure).toBeInstanceOf(kind);
      expect(failure).toMatchObject({
        status,
        type,
        error: { type: 'error', error: { type, message: 'Invalid value for field x.' } },
      });
    },
  );
});
