import type { ChatEvent } from '@gen/contracts';
import OpenAI, { APIError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ProtocolError, aggregate } from '../canonical/text-input';
import { mapChatCompletionsRequest } from './request';
import { ChatCompletionsStreamWriter } from './stream';
import { replayServer } from './testing/replay-server';

const BASE = { id: 'req_01JZ8', model: 'openai/gpt-5-mini', created: 1767225600 };

/** Reasoning, text, then two tool calls whose fragments interleave (index 0, 1, 0), usage and the finish. */
const TOOL_EVENTS: ChatEvent[] = [
  { type: 'reasoning', delta: 'The user wants ' },
  { type: 'reasoning', delta: 'the weather.' },
  { type: 'text', delta: 'Let me ' },
  { type: 'text', delta: 'check.' },
  { type: 'tool_call', index: 0, id: 'call_a', name: 'get_weather', argumentsDelta: '' },
  { type: 'tool_call', index: 0, argumentsDelta: '{"city":' },
  { type: 'tool_call', index: 1, id: 'call_b', name: 'get_time', argumentsDelta: '{"tz":"CET"}' },
  { type: 'tool_call', index: 0, argumentsDelta: '"Paris"}' },
  { type: 'usage', inputTokens: 120, cachedInputTokens: 64, outputTokens: 57, reasoningTokens: 12 },
  { type: 'finish', reason: 'tool_calls' },
];

/** Text, then two tool calls one after the other, as every upstream sends them; no reasoning, no usage. */
const SEQUENTIAL_EVENTS: ChatEvent[] = [
  { type: 'text', delta: 'Checking.' },
  { type: 'tool_call', index: 0, id: 'call_a', name: 'get_weather', argumentsDelta: '{"city":' },
  { type: 'tool_call', index: 0, argumentsDelta: '"Paris"}' },
  { type: 'tool_call', index: 1, id: 'call_b', name: 'get_time', argumentsDelta: '{"tz":' },
  { type: 'tool_call', index: 1, argumentsDelta: '"CET"}' },
  { type: 'finish', reason: 'tool_calls' },
];

/** Anthropic-style signed reasoning: two thinking blocks (each closed by its signature), a redacted one, a call. */
const SIGNED_EVENTS: ChatEvent[] = [
  { type: 'reasoning', delta: 'The user wants ' },
  { type: 'reasoning', delta: 'the weather.' },
  { type: 'reasoning_signature', signature: 'EqQBCkgIARABGAIiQL2UoU0b1OHYi' },
  { type: 'redacted_reasoning', data: 'EmwKAhgBEgy3va3pzix' },
  { type: 'reasoning', delta: 'Call the tool.' },
  { type: 'reasoning_signature', signature: 'ErUBCkYIBhgCIkAgx' },
  { type: 'tool_call', index: 0, id: 'toolu_1', name: 'get_weather', argumentsDelta: '{"city":"Paris"}' },
  { type: 'finish', reason: 'tool_calls' },
];
const SIGNED_BLOCKS = [
  { type: 'thinking', thinking: 'The user wants the weather.', signature: 'EqQBCkgIARABGAIiQL2UoU0b1OHYi' },
  { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
  { type: 'thinking', thinking: 'Call the tool.', signature: 'ErUBCkYIBhgCIkAgx' },
];

function frames(events: ChatEvent[], includeUsage: boolean): string[] {
  const writer = new ChatCompletionsStreamWriter(BASE, { includeUsage });
  return [
    ...writer.start(),
    ...events.flatMap((e) => writer.event(e)),
    ...writer.end(aggregate(events, BASE)),
  ];
}

/** The JSON of each `data:` frame but `[DONE]`. */
const payloads = (all: string[]): Record<string, unknown>[] =>
  all
    .filter((f) => f !== 'data: [DONE]\n\n')
    .map((f) => JSON.parse(f.replace(/^data: /, '')) as Record<string, unknown>);

let server: Awaited<ReturnType<typeof replayServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function client(pieces: string[][]): Promise<OpenAI> {
  server = await replayServer(pieces.map((p) => ({ pieces: p })));
  return new OpenAI({ apiKey: 'sk-test', baseURL: server.baseURL, maxRetries: 0 });
}

describe('ChatCompletionsStreamWriter: the frames', () => {
  it('writes every chunk as one SSE data line, ending with data: [DONE]', () => {
    const all = frames(TOOL_EVENTS, true);
    for (const frame of all) expect(frame).toMatch(/^data: [^\n]+\n\n$/);
    expect(all.at(-1)).toBe('data: [DONE]\n\n');
    for (const chunk of payloads(all)) {
      expect(chunk).toMatchObject({
        id: 'chatcmpl-req_01JZ8',
        object: 'chat.completion.chunk',
        created: 1767225600,
        model: 'openai/gpt-5-mini',
      });
      expect(chunk).not.toHaveProperty('system_fingerprint');
    }
  });

  it('opens with the assistant role and gives id, type and name only on the first fragment of an index', () => {
    expect(new ChatCompletionsStreamWriter(BASE, { includeUsage: true }).start()).toEqual([]);
    const deltas = payloads(frames(TOOL_EVENTS, false)).map(
      (c) => (c['choices'] as { delta: Record<string, unknown> }[])[0]?.delta,
    );
    expect(deltas).toEqual([
      { role: 'assistant', content: null, reasoning_content: 'The user wants ' },
      { reasoning_content: 'the weather.' },
      { content: 'Let me ' },
      { content: 'check.' },
      {
        tool_calls: [
          { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
        ],
      },
      { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] },
      {
        tool_calls: [
          {
            index: 1,
            id: 'call_b',
            type: 'function',
            function: { name: 'get_time', arguments: '{"tz":"CET"}' },
          },
        ],
      },
      { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] },
      {},
    ]);
  });

  it('writes each signed block whole, once, in delta.thinking_blocks when its signature (or the block) comes', () => {
    const deltas = payloads(frames(SIGNED_EVENTS, false)).map(
      (c) => (c['choices'] as { delta: Record<string, unknown> }[])[0]?.delta,
    );
    expect(deltas).toEqual([
      { role: 'assistant', content: null, reasoning_content: 'The user wants ' },
      { reasoning_content: 'the weather.' },
      { thinking_blocks: [SIGNED_BLOCKS[0]] },
      { thinking_blocks: [SIGNED_BLOCKS[1]] },
      { reasoning_content: 'Call the tool.' },
      { thinking_blocks: [SIGNED_BLOCKS[2]] },
      {
        tool_calls: [
          {
            index: 0,
            id: 'toolu_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      {},
    ]);
    // A redacted block first still opens the answer with the role.
    const first = payloads(frames([{ type: 'redacted_reasoning', data: 'x' }], false))[0]!;
    expect((first['choices'] as { delta: unknown }[])[0]?.delta).toEqual({
      role: 'assistant',
      content: null,
      thinking_blocks: [{ type: 'redacted_thinking', data: 'x' }],
    });
  });

  it('with include_usage: usage null on every chunk, then one chunk with no choices and the final usage', () => {
    const chunks = payloads(frames(TOOL_EVENTS, true));
    const last = chunks.at(-1)!;
    expect(last).toMatchObject({
      choices: [],
      usage: {
        prompt_tokens: 120,
        completion_tokens: 57,
        total_tokens: 177,
        prompt_tokens_details: { cached_tokens: 64 },
        completion_tokens_details: { reasoning_tokens: 12 },
      },
    });
    for (const chunk of chunks.slice(0, -1)) expect(chunk['usage']).toBeNull();
  });

  it('without include_usage: no chunk has a usage key, and the usage event writes nothing', () => {
    const all = frames(TOOL_EVENTS, false);
    for (const chunk of payloads(all)) expect(Object.keys(chunk)).not.toContain('usage');
    expect(all.join('')).not.toContain('prompt_tokens');
  });

  it('carries exactly one finish_reason: the finish event, or the result at the end when none came', () => {
    const finishes = (all: string[]) =>
      payloads(all)
        .flatMap((c) => c['choices'] as { finish_reason: string | null }[])
        .map((c) => c.finish_reason)
        .filter((r) => r !== null);
    expect(finishes(frames(TOOL_EVENTS, true))).toEqual(['tool_calls']);
    expect(finishes(frames([{ type: 'text', delta: 'x' }], true))).toEqual(['stop']);
    const twice: ChatEvent[] = [
      { type: 'text', delta: 'x' },
      { type: 'finish', reason: 'length' },
      { type: 'text', delta: 'late' },
      { type: 'finish', reason: 'stop' },
    ];
    expect(finishes(frames(twice, false))).toEqual(['length']);
    expect(frames(twice, false).join('')).not.toContain('late');
  });

  it('opens an answer that starts with a tool call with role, content null and the fragment in one chunk', () => {
    const chunks = payloads(
      frames([{ type: 'tool_call', index: 0, name: 'f', argumentsDelta: '{}' }], false),
    );
    expect(chunks.map((c) => (c['choices'] as unknown[])[0])).toEqual([
      {
        index: 0,
        delta: {
          role: 'assistant',
          content: null,
          // No id from the upstream: named the same way the non-streamed body names it.
          tool_calls: [
            { index: 0, id: 'call_req_01JZ8_0', type: 'function', function: { name: 'f', arguments: '{}' } },
          ],
        },
        finish_reason: null,
      },
      { index: 0, delta: {}, finish_reason: 'stop' },
    ]);
  });

  it('opens a text answer with content "" alone, and an answer without anything with content null', () => {
    const deltas = (events: ChatEvent[]) =>
      payloads(frames(events, false)).map((c) => (c['choices'] as { delta: unknown }[])[0]?.delta);
    expect(deltas([])).toEqual([{ role: 'assistant', content: null }, {}]);
    expect(deltas([{ type: 'finish', reason: 'length' }])).toEqual([
      { role: 'assistant', content: null },
      {},
    ]);
    expect(deltas([{ type: 'text', delta: 'Hi' }])).toEqual([
      { role: 'assistant', content: '' },
      { content: 'Hi' },
      {},
    ]);
  });

  it('writes a failure as one data chunk with an error object, without [DONE]', () => {
    const writer = new ChatCompletionsStreamWriter(BASE, { includeUsage: true });
    const error = new ProtocolError(503, 'upstream_failed', 'server.unavailable');
    expect(writer.error(error, 'The service is temporarily unavailable.')).toEqual([
      'data: {"error":{"message":"The service is temporarily unavailable.","type":"server_error","param":null,"code":"upstream_failed"}}\n\n',
    ]);
  });
});

describe('ChatCompletionsStreamWriter read by the official openai SDK over HTTP', () => {
  it('create({stream: true}) yields the text, reasoning, tool calls by index and the usage chunk', async () => {
    const openai = await client([frames(TOOL_EVENTS, true)]);
    const stream = await openai.chat.completions.create({
      model: BASE.model,
      messages: [{ role: 'user', content: 'Weather and time in Paris?' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    let content = '';
    let reasoning = '';
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    for (const chunk of chunks) {
      for (const choice of chunk.choices) {
        const delta = choice.delta as typeof choice.delta & { reasoning_content?: string };
        content += delta.content ?? '';
        reasoning += delta.reasoning_content ?? '';
        for (const call of delta.tool_calls ?? []) {
          const slot = (calls[call.index] ??= { arguments: '' });
          if (call.id) slot.id = call.id;
          if (call.function?.name) slot.name = call.function.name;
          slot.arguments += call.function?.arguments ?? '';
        }
      }
    }
    expect(content).toBe('Let me check.');
    expect(reasoning).toBe('The user wants the weather.');
    expect(calls).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { id: 'call_b', name: 'get_time', arguments: '{"tz":"CET"}' },
    ]);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { total_tokens: 177 } });
    expect(chunks.filter((c) => c.usage !== null)).toHaveLength(1);
  });

  it('skips the keep-alive comment lines written between chunks', async () => {
    const writer = new ChatCompletionsStreamWriter(BASE, { includeUsage: false });
    const pieces = [
      ...writer.keepAlive(),
      ...writer.start(),
      ...writer.keepAlive(),
      ...writer.event({ type: 'text', delta: 'Hel' }),
      ...writer.keepAlive(),
      ...writer.event({ type: 'text', delta: 'lo' }),
      ...writer.end(aggregate([{ type: 'text', delta: 'Hello' }], BASE)),
    ];
    expect(pieces.filter((p) => p === ': keep-alive\n\n')).toHaveLength(3);
    const openai = await client([pieces]);
    const stream = await openai.chat.completions.create({
      model: BASE.model,
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    let content = '';
    let count = 0;
    for await (const chunk of stream) {
      count += 1;
      content += chunk.choices[0]?.delta.content ?? '';
    }
    expect(content).toBe('Hello');
    expect(count).toBe(4);
  });

  it('the stream() helper assembles the same final completion the aggregate gives', async () => {
    const openai = await client([frames(SEQUENTIAL_EVENTS, true)]);
    const runner = openai.chat.completions.stream({
      model: BASE.model,
      messages: [{ role: 'user', content: 'Weather and time in Paris?' }],
      stream_options: { include_usage: true },
    });
    const done: string[] = [];
    runner.on('tool_calls.function.arguments.done', (e) => done.push(`${e.name}:${e.arguments}`));
    const final = await runner.finalChatCompletion();
    expect(final.id).toBe('chatcmpl-req_01JZ8');
    expect(final.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } },
        ],
      },
    });
    // No usage event came: the final chunk still reports the (zero) usage, never omits it.
    expect(final.usage).toEqual({
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(done).toEqual(['get_weather:{"city":"Paris"}', 'get_time:{"tz":"CET"}']);
  });

  it('the stream() helper: an answer that is only tool calls has content null, as the non-streamed body', async () => {
    const openai = await client([frames(SEQUENTIAL_EVENTS.slice(1), false)]);
    const final = await openai.chat.completions
      .stream({ model: BASE.model, messages: [{ role: 'user', content: 'x' }] })
      .finalChatCompletion();
    expect(final.choices[0]?.message.content).toBeNull();
    expect(final.choices[0]?.message.tool_calls).toHaveLength(2);
    expect(final.usage).toBeUndefined();
  });

  it('runTools() runs the tool from our stream and its second request maps back through our mapper', async () => {
    const first: ChatEvent[] = [
      { type: 'tool_call', index: 0, id: 'call_w', name: 'get_weather', argumentsDelta: '{"city"' },
      { type: 'tool_call', index: 0, argumentsDelta: ':"Paris"}' },
      { type: 'finish', reason: 'tool_calls' },
    ];
    const second: ChatEvent[] = [
      { type: 'text', delta: 'Sunny, ' },
      { type: 'text', delta: '21 degrees.' },
      { type: 'finish', reason: 'stop' },
    ];
    const openai = await client([frames(first, false), frames(second, false)]);
    const seen: unknown[] = [];
    const runner = openai.chat.completions.runTools({
      model: BASE.model,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      stream: true,
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Current weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
            parse: (text: string) => JSON.parse(text) as { city: string },
            function: (args: { city: string }) => {
              seen.push(args);
              return { city: args.city, temp: 21 };
            },
          },
        },
      ],
    });
    expect(await runner.finalContent()).toBe('Sunny, 21 degrees.');
    expect(seen).toEqual([{ city: 'Paris' }]);

    const followUp = mapChatCompletionsRequest(server!.bodies[1]);
    expect(followUp.input.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_w',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_w', content: '{"city":"Paris","temp":21}' },
    ]);
  });

  it('signed reasoning: collected from the chunks, the blocks go back on the next turn and map unchanged', async () => {
    const answer: ChatEvent[] = [
      { type: 'text', delta: 'Sunny.' },
      { type: 'finish', reason: 'stop' },
    ];
    const openai = await client([frames(SIGNED_EVENTS, false), frames(answer, false)]);
    const question = { role: 'user' as const, content: 'Weather in Paris?' };
    const stream = await openai.chat.completions.create({
      model: BASE.model,
      messages: [question],
      stream: true,
    });
    // What a client of LiteLLM's convention does: join reasoning_content, collect thinking_blocks in order.
    let reasoning = '';
    const blocks: unknown[] = [];
    const calls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as
        | (ChatCompletionChunk.Choice.Delta & { reasoning_content?: string; thinking_blocks?: unknown[] })
        | undefined;
      reasoning += delta?.reasoning_content ?? '';
      blocks.push(...(delta?.thinking_blocks ?? []));
      for (const call of delta?.tool_calls ?? []) {
        calls[call.index] = {
          id: call.id!,
          type: 'function',
          function: { name: call.function!.name!, arguments: call.function!.arguments! },
        };
      }
    }
    expect(reasoning).toBe('The user wants the weather.Call the tool.');
    expect(blocks).toEqual(SIGNED_BLOCKS);
    expect(blocks).toEqual(aggregate(SIGNED_EVENTS, BASE).thinkingBlocks);

    const assistant = {
      role: 'assistant' as const,
      content: null,
      tool_calls: calls,
      reasoning_content: reasoning,
      thinking_blocks: blocks,
    };
    await openai.chat.completions.create({
      model: BASE.model,
      messages: [question, assistant, { role: 'tool', tool_call_id: 'toolu_1', content: '21 C' }],
    });
    const followUp = mapChatCompletionsRequest(server!.bodies[1]);
    expect(followUp.input.messages[1]).toEqual({ ...assistant, thinking_blocks: SIGNED_BLOCKS });
    expect(followUp.ignored).toEqual([]);
  });

  it('raises a failure after the start as an APIError with the code, param and type of our error chunk', async () => {
    const writer = new ChatCompletionsStreamWriter(BASE, { includeUsage: false });
    const pieces = [
      ...writer.start(),
      ...writer.event({ type: 'text', delta: 'Par' }),
      ...writer.error(
        new ProtocolError(500, 'upstream_failed', 'server.error'),
        'The model provider failed.',
      ),
    ];
    const openai = await client([pieces]);
    const stream = await openai.chat.completions.create({
      model: BASE.model,
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    let content = '';
    let caught: unknown;
    try {
      for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    } catch (error) {
      caught = error;
    }
    expect(content).toBe('Par');
    expect(caught).toBeInstanceOf(APIError);
    expect(caught).toMatchObject({
      code: 'upstream_failed',
      type: 'server_error',
      param: null,
      message: 'The model provider failed.',
    });
  });
});
