import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatEvent } from '@gen/contracts';
import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { thinkingToken } from '../canonical/reasoning';
import { aggregate, ProtocolError, type StreamWriter } from '../canonical/text-input';
import { writeResponsesError } from './error';
import { mapResponsesRequest } from './request';
import { writeResponsesResponse } from './response';
import { ResponsesStreamWriter } from './stream';

/**
 * The official `openai` client against a local HTTP server that answers with this folder's writers: the SDK's
 * own SSE parser and ResponseStream accumulator (which validates item identities, indexes and ordering) read
 * our frames, exactly as they would read OpenAI's.
 */
type Reply = (request: IncomingMessage, body: string, response: ServerResponse) => void;

let server: Server;
let reply: Reply;
let client: OpenAI;
const received: { url: string; body: unknown }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ url: request.url ?? '', body: JSON.parse(body) });
      reply(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new OpenAI({ apiKey: 'sk-test', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received.length = 0;
});

const BASE = { id: 'req_7', model: 'openai/gpt-oss-120b', created: 1_700_000_000 };
const USAGE: ChatEvent = {
  type: 'usage',
  inputTokens: 50,
  cachedInputTokens: 20,
  outputTokens: 30,
  reasoningTokens: 12,
};

/** Replays the writer's frames for `events`, one write per frame, the way the service streams them. */
function replayStream(events: ChatEvent[]): Reply {
  return (_request, _body, response) => {
    const writer: StreamWriter = new ResponsesStreamWriter(BASE);
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const frame of writer.start()) response.write(frame);
    for (const event of events) for (const frame of writer.event(event)) response.write(frame);
    for (const frame of writer.end(aggregate(events, BASE))) response.write(frame);
    response.end();
  };
}

const TEXT_EVENTS: ChatEvent[] = [
  { type: 'reasoning', delta: 'The user greets; ' },
  { type: 'reasoning', delta: 'answer briefly.' },
  { type: 'text', delta: 'Hello' },
  { type: 'text', delta: ', world!' },
  USAGE,
  { type: 'finish', reason: 'stop' },
];

const TOOL_EVENTS: ChatEvent[] = [
  { type: 'text', delta: 'Checking both.' },
  { type: 'tool_call', index: 0, id: 'call_w', name: 'weather', argumentsDelta: '{"ci' },
  { type: 'tool_call', index: 1, id: 'call_t', name: 'time', argumentsDelta: '{"tz":' },
  { type: 'tool_call', index: 0, argumentsDelta: 'ty":"Paris"}' },
  { type: 'tool_call', index: 1, argumentsDelta: '"CET"}' },
  USAGE,
  { type: 'finish', reason: 'tool_calls' },
];

/** Claude's extended thinking with a tool: a signed thinking block, a redacted one, text, a function call. */
const SIGNED_EVENTS: ChatEvent[] = [
  { type: 'reasoning', delta: 'Paris weather: ' },
  { type: 'reasoning', delta: 'call the tool.' },
  { type: 'reasoning_signature', signature: 'EqQBCkgIARABGAIiQL2UoU0b1OHYi' },
  { type: 'redacted_reasoning', data: 'EmwKAhgBEgy3va3pzix' },
  { type: 'text', delta: 'Checking.' },
  { type: 'tool_call', index: 0, id: 'toolu_a', name: 'weather', argumentsDelta: '{"city":"Paris"}' },
  USAGE,
  { type: 'finish', reason: 'tool_calls' },
];
const SIGNED_BLOCKS = [
  {
    type: 'thinking' as const,
    thinking: 'Paris weather: call the tool.',
    signature: 'EqQBCkgIARABGAIiQL2UoU0b1OHYi',
  },
  { type: 'redacted_thinking' as const, data: 'EmwKAhgBEgy3va3pzix' },
];
const SIGNED_OUTPUT = [
  {
    id: 'rs_req_7',
    type: 'reasoning',
    summary: [{ type: 'summary_text', text: 'Paris weather: call the tool.' }],
    encrypted_content: thinkingToken(SIGNED_BLOCKS[0]!),
  },
  { id: 'rs_req_7_1', type: 'reasoning', summary: [], encrypted_content: thinkingToken(SIGNED_BLOCKS[1]!) },
  {
    id: 'msg_req_7',
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Checking.' }],
  },
  {
    id: 'fc_req_7_0',
    type: 'function_call',
    status: 'completed',
    call_id: 'toolu_a',
    name: 'weather',
    arguments: '{"city":"Paris"}',
  },
];

describe('Responses writers read by the openai SDK', () => {
  it('non-streamed: responses.create returns our Response with output_text, reasoning and usage', async () => {
    reply = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(writeResponsesResponse(aggregate(TEXT_EVENTS, BASE), { temperature: 0.3 })),
      );
    };
    const result = await client.responses.create({ model: BASE.model, input: 'Say hello', temperature: 0.3 });
    expect(received[0]).toEqual({
      url: '/v1/responses',
      body: { model: BASE.model, input: 'Say hello', temperature: 0.3 },
    });
    expect(result.id).toBe('resp_req_7');
    expect(result.object).toBe('response');
    expect(result.status).toBe('completed');
    expect(result.created_at).toBe(BASE.created);
    expect(result.temperature).toBe(0.3);
    expect(result.output_text).toBe('Hello, world!');
    expect(result.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    // Reasoning nobody signed: a summary, no encrypted_content.
    expect(result.output[0]).toEqual({
      id: 'rs_req_7',
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'The user greets; answer briefly.' }],
    });
    expect(result.usage).toEqual({
      input_tokens: 50,
      input_tokens_details: { cached_tokens: 20 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 12 },
      total_tokens: 80,
    });
  });

  it('non-streamed: function calls come back as function_call items with call_id, name and arguments', async () => {
    reply = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(writeResponsesResponse(aggregate(TOOL_EVENTS, BASE))));
    };
    const result = await client.responses.create({ model: BASE.model, input: 'weather and time in Paris?' });
    expect(result.output).toEqual([
      {
        id: 'msg_req_7',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Checking both.' }],
      },
      {
        id: 'fc_req_7_0',
        type: 'function_call',
        status: 'completed',
        call_id: 'call_w',
        name: 'weather',
        arguments: '{"city":"Paris"}',
      },
      {
        id: 'fc_req_7_1',
        type: 'function_call',
        status: 'completed',
        call_id: 'call_t',
        name: 'time',
        arguments: '{"tz":"CET"}',
      },
    ]);
  });

  it('non-streamed: a length finish is an incomplete response with reason max_output_tokens', async () => {
    reply = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const events: ChatEvent[] = [
        { type: 'text', delta: 'Once upon' },
        USAGE,
        { type: 'finish', reason: 'length' },
      ];
      response.end(JSON.stringify(writeResponsesResponse(aggregate(events, BASE), { max_tokens: 2 })));
    };
    const result = await client.responses.create({ model: BASE.model, input: 'story', max_output_tokens: 2 });
    expect(result.status).toBe('incomplete');
    expect(result.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(result.max_output_tokens).toBe(2);
    expect(result.output_text).toBe('Once upon');
  });

  it('streamed (create with stream: true): the raw events in the real order, sequence numbers 0..n', async () => {
    reply = replayStream(TEXT_EVENTS);
    const stream = await client.responses.create({ model: BASE.model, input: 'Say hello', stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const completed = events.at(-1);
    if (completed?.type !== 'response.completed') throw new Error('no response.completed');
    expect(completed.response.status).toBe('completed');
    expect(completed.response.usage?.output_tokens_details.reasoning_tokens).toBe(12);
    expect(completed.response.output.map((item) => item.id)).toEqual(['rs_req_7', 'msg_req_7']);
  });

  it('streamed (responses.stream): the SDK accumulator rebuilds text and the final response', async () => {
    reply = replayStream(TEXT_EVENTS);
    const stream = client.responses.stream({ model: BASE.model, input: 'Say hello' });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(deltas).toEqual(['Hello', ', world!']);
    expect(final.output_text).toBe('Hello, world!');
    expect(final.usage?.total_tokens).toBe(80);
    expect(received[0]?.body).toMatchObject({ stream: true });
  });

  it('non-streamed: one reasoning item per signed block, the block in encrypted_content', async () => {
    reply = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(writeResponsesResponse(aggregate(SIGNED_EVENTS, BASE))));
    };
    const result = await client.responses.create({ model: BASE.model, input: 'Weather in Paris?' });
    expect(result.output).toEqual(SIGNED_OUTPUT);
  });

  it('streamed: summary events for the text, then output_item.done with the encrypted_content', async () => {
    reply = replayStream(SIGNED_EVENTS);
    const stream = await client.responses.create({ model: BASE.model, input: 'Weather?', stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    expect(events.slice(2, 13).map((event) => event.type)).toEqual([
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      // The redacted block: an item with no summary.
      'response.output_item.added',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    expect(events[2]).toMatchObject({ item: { id: 'rs_req_7', type: 'reasoning', summary: [] } });
    expect(events[3]).toMatchObject({
      item_id: 'rs_req_7',
      output_index: 0,
      summary_index: 0,
      part: { type: 'summary_text', text: '' },
    });
    expect(events[8]).toMatchObject({ output_index: 0, item: SIGNED_OUTPUT[0] });
  });

  it('streamed (responses.stream): the final output has the reasoning items; sent back, the blocks map unchanged', async () => {
    reply = replayStream(SIGNED_EVENTS);
    const stream = client.responses.stream({ model: BASE.model, input: 'Weather in Paris?' });
    const summaries: string[] = [];
    stream.on('response.reasoning_summary_text.delta', (event) => summaries.push(event.delta));
    const final = await stream.finalResponse();
    expect(summaries).toEqual(['Paris weather: ', 'call the tool.']);
    // (The helper adds its `parsed` fields to the message and the call; the reasoning items are as written.)
    expect(final.output).toMatchObject(SIGNED_OUTPUT);
    expect(final.output.slice(0, 2)).toEqual(SIGNED_OUTPUT.slice(0, 2));

    // The stateless loop of OpenAI's docs: the output items go back in `input`, then the function result.
    reply = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(writeResponsesResponse(aggregate([{ type: 'text', delta: 'Sunny.' }], BASE))),
      );
    };
    await client.responses.create({
      model: BASE.model,
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        // The SDK's output type is wider than its input type (computer calls may have failed), not ours.
        ...(final.output as ResponseInputItem[]),
        { type: 'function_call_output', call_id: 'toolu_a', output: '21 C' },
      ],
    });
    const mapped = mapResponsesRequest(received[1]!.body);
    expect(mapped.input.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: 'Checking.',
        reasoning_content: 'Paris weather: call the tool.',
        thinking_blocks: SIGNED_BLOCKS,
        tool_calls: [
          { id: 'toolu_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_a', content: '21 C' },
    ]);
    expect(mapped.ignored).toEqual([]);
  });

  it('streamed: interleaved function call fragments arrive whole, per call, with usage', async () => {
    reply = replayStream(TOOL_EVENTS);
    const stream = client.responses.stream({ model: BASE.model, input: 'weather and time?' });
    const argumentDeltas: [string, string][] = [];
    stream.on('response.function_call_arguments.delta', (event) =>
      argumentDeltas.push([event.item_id, event.delta]),
    );
    const done: unknown[] = [];
    stream.on('response.function_call_arguments.done', (event) =>
      done.push([event.item_id, event.arguments]),
    );
    const final = await stream.finalResponse();
    expect(argumentDeltas).toEqual([
      ['fc_req_7_0', '{"ci'],
      ['fc_req_7_1', '{"tz":'],
      ['fc_req_7_0', 'ty":"Paris"}'],
      ['fc_req_7_1', '"CET"}'],
    ]);
    expect(done).toEqual([
      ['fc_req_7_0', '{"city":"Paris"}'],
      ['fc_req_7_1', '{"tz":"CET"}'],
    ]);
    expect(final.output_text).toBe('Checking both.');
    expect(final.output.filter((item) => item.type === 'function_call')).toEqual([
      expect.objectContaining({ call_id: 'call_w', name: 'weather', arguments: '{"city":"Paris"}' }),
      expect.objectContaining({ call_id: 'call_t', name: 'time', arguments: '{"tz":"CET"}' }),
    ]);
    expect(final.usage).toMatchObject({ input_tokens: 50, output_tokens: 30 });
  });

  it('streamed: a stream with no output still has one (empty) message item', async () => {
    const events: ChatEvent[] = [USAGE, { type: 'finish', reason: 'stop' }];
    reply = replayStream(events);
    const final = await client.responses.stream({ model: BASE.model, input: 'x' }).finalResponse();
    expect(final.output).toEqual([
      {
        id: 'msg_req_7',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        // `parsed` is the SDK's own addition for responses.stream (text.format parsing).
        content: [{ type: 'output_text', annotations: [], logprobs: [], text: '', parsed: null }],
      },
    ]);
  });

  it('streamed: a truncated answer ends with response.incomplete', async () => {
    reply = replayStream([{ type: 'text', delta: 'Once' }, USAGE, { type: 'finish', reason: 'length' }]);
    const stream = await client.responses.create({ model: BASE.model, input: 'x', stream: true });
    const types: string[] = [];
    let last: unknown;
    for await (const event of stream) {
      types.push(event.type);
      last = event;
    }
    expect(types.at(-1)).toBe('response.incomplete');
    expect(types).not.toContain('response.completed');
    expect(last).toMatchObject({
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
  });

  it('streamed: a failure mid-stream is an error event the SDK raises as an APIError', async () => {
    reply = (_request, _body, response) => {
      const writer = new ResponsesStreamWriter(BASE);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const frame of writer.start()) response.write(frame);
      for (const frame of writer.event({ type: 'text', delta: 'Hel' })) response.write(frame);
      const failure = new ProtocolError(500, 'upstream_failed', 'task.error.upstream_failed');
      for (const frame of writer.error(failure, 'The model provider failed.')) response.write(frame);
      response.end();
    };
    const stream = await client.responses.create({ model: BASE.model, input: 'x', stream: true });
    const seen: string[] = [];
    const failure = await (async () => {
      try {
        for await (const event of stream) seen.push(event.type);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(seen).toContain('response.output_text.delta');
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure).toMatchObject({
      message: expect.stringContaining('The model provider failed.'),
      error: { type: 'error', code: 'upstream_failed', message: 'The model provider failed.', param: null },
    });
  });

  it('an error body: the SDK raises the status with our message, type, code and param', async () => {
    reply = (_request, _body, response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      const error = new ProtocolError(
        400,
        'unsupported_parameter',
        'responses.previous_response_id',
        {},
        'previous_response_id',
      );
      response.end(JSON.stringify(writeResponsesError(error, 'previous_response_id is not supported.')));
    };
    const failure = await client.responses
      .create({ model: BASE.model, input: 'x', previous_response_id: 'resp_1' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect(failure).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'unsupported_parameter',
      param: 'previous_response_id',
      error: { message: 'previous_response_id is not supported.' },
    });
  });
});
