import fc from 'fast-check';
import type { ChatRequest } from '@gen/contracts';
import {
  CHAT_FIELDS_NOT_SENT,
  anthropicMessagesBody,
  geminiGenerateBody,
  openAiChatBody,
  thinkingBudget,
} from '@gen/providers';
import {
  readAnthropicMessagesRequest,
  readGeminiGenerateRequest,
  readOpenAiChatRequest,
  type WireRequest,
} from '@gen/providers/testing';
import {
  applyFieldRules,
  mapChatCompletionsRequest,
  mapGenerateContentRequest,
  mapMessagesRequest,
  mapResponsesRequest,
  type MappedRequest,
  type ModelLimits,
  type TextInput,
} from '@gen/protocols';
import {
  toChatCompletionsRequest,
  toGenerateContentRequest,
  toMessagesRequest,
  toResponsesRequest,
} from '@gen/protocols/testing';

/**
 * The boundary that matters, client request -> upstream body, as a property: any valid request of any inbound
 * protocol, for a model whose entry accepts every field, yields an upstream body that carries every field of the
 * request its upstream has a name for. The body is read back by an independent reader of that wire format (one
 * that refuses any field the format does not have), never by the code under test; what each field must become is
 * written here from docs/text.md's tables.
 */

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A model that accepts every field the catalog can list. */
const EVERYTHING: ModelLimits = {
  maxOutputTokens: 16_384,
  parameters: {
    temperature: { minimum: 0, maximum: 2 },
    top_p: { minimum: 0, maximum: 1 },
    top_k: { minimum: 1, maximum: 500 },
    frequency_penalty: { minimum: -2, maximum: 2 },
    presence_penalty: { minimum: -2, maximum: 2 },
  },
  reasoningLevels: ['none', 'low', 'medium', 'high'],
  maxStopSequences: 4,
  tools: true,
  images: true,
  responseFormats: ['text', 'json_object', 'json_schema'],
};

type Protocol = 'chat completions' | 'responses' | 'messages' | 'generate content';
type Adapter = 'openai-compatible' | 'anthropic' | 'gemini';

/** The canonical fields each protocol can say (the spec's mapping table and the protocols' own extras). */
const SAYS: Record<Protocol, ReadonlySet<string>> = {
  'chat completions': new Set([
    'temperature',
    'top_p',
    'top_k',
    'frequency_penalty',
    'presence_penalty',
    'stop',
    'response_format',
    'reasoning_effort',
  ]),
  responses: new Set(['temperature', 'top_p', 'response_format', 'reasoning_effort']),
  messages: new Set(['temperature', 'top_p', 'top_k', 'stop']),
  'generate content': new Set([
    'temperature',
    'top_p',
    'top_k',
    'frequency_penalty',
    'presence_penalty',
    'stop',
    'response_format',
    'reasoning_effort',
  ]),
};

const word = fc.stringMatching(/^[a-z]{1,8}( [a-z]{1,8}){0,3}$/);
const TOOL_NAMES = ['look', 'find', 'count'] as const;
const argsArb = fc.dictionary(fc.constantFrom('a', 'b', 'n'), fc.oneof(fc.integer(), word), { maxKeys: 2 });

/** One exchange: a user turn (text, maybe an image), maybe answered by tool calls and their results. */
const exchange = fc.record({
  text: word,
  image: fc.boolean(),
  calls: fc.array(fc.record({ name: fc.constantFrom(...TOOL_NAMES), args: argsArb, result: word }), {
    maxLength: 2,
  }),
});

function requestArb(protocol: Protocol): fc.Arbitrary<TextInput> {
  const says = SAYS[protocol];
  const maybe = <T>(field: string, arb: fc.Arbitrary<T>) =>
    says.has(field) ? fc.option(arb, { nil: undefined }) : fc.constant(undefined);
  return fc
    .record({
      system: fc.option(word, { nil: undefined }),
      exchanges: fc.array(exchange, { minLength: 1, maxLength: 3 }),
      last: word,
      // Messages requires max_tokens: a request of that protocol always has one.
      max_tokens:
        protocol === 'messages'
          ? fc.integer({ min: 1, max: 16_000 })
          : fc.option(fc.integer({ min: 1, max: 16_000 }), { nil: undefined }),
      temperature: maybe(
        'temperature',
        fc.integer({ min: 0, max: 20 }).map((n) => n / 10),
      ),
      top_p: maybe(
        'top_p',
        fc.integer({ min: 1, max: 10 }).map((n) => n / 10),
      ),
      top_k: maybe('top_k', fc.integer({ min: 1, max: 500 })),
      frequency_penalty: maybe(
        'frequency_penalty',
        fc.integer({ min: -20, max: 20 }).map((n) => n / 10),
      ),
      presence_penalty: maybe(
        'presence_penalty',
        fc.integer({ min: -20, max: 20 }).map((n) => n / 10),
      ),
      stop: maybe('stop', fc.array(fc.stringMatching(/^[A-Z]{1,5}$/), { minLength: 1, maxLength: 3 })),
      response_format: maybe(
        'response_format',
        fc.constantFrom<NonNullable<TextInput['response_format']>>(
          { type: 'json_object' },
          { type: 'json_schema', json_schema: { name: 'response', schema: { type: 'object' } } },
        ),
      ),
      reasoning_effort: maybe('reasoning_effort', fc.constantFrom('none', 'low', 'medium', 'high')),
      tool_choice: fc.option(
        fc.constantFrom<'auto' | 'none' | 'required' | 'look'>('auto', 'none', 'required', 'look'),
        {
          nil: undefined,
        },
      ),
    })
    .map((r) => {
      const messages: TextInput['messages'] = [];
      if (r.system !== undefined) messages.push({ role: 'system', content: r.system });
      let id = 0;
      for (const turn of r.exchanges) {
        messages.push({
          role: 'user',
          content: turn.image
            ? [
                { type: 'text', text: turn.text },
                { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
              ]
            : turn.text,
        });
        if (turn.calls.length === 0) continue;
        const calls = turn.calls.map((call) => ({ ...call, id: `call_${(id += 1)}` }));
        messages.push({
          role: 'assistant',
          content: null,
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.name, arguments: JSON.stringify(c.args) },
          })),
        });
        for (const c of calls) messages.push({ role: 'tool', tool_call_id: c.id, content: c.result });
      }
      messages.push({ role: 'user', content: r.last });
      const input: TextInput = {
        messages,
        tools: TOOL_NAMES.map((name) => ({
          type: 'function' as const,
          function: { name, description: `${name} tool`, parameters: { type: 'object', properties: {} } },
        })),
      };
      for (const field of [
        'max_tokens',
        'temperature',
        'top_p',
        'top_k',
        'frequency_penalty',
        'presence_penalty',
        'stop',
        'response_format',
        'reasoning_effort',
      ] as const) {
        if (r[field] !== undefined) (input as unknown as Record<string, unknown>)[field] = r[field];
      }
      if (r.tool_choice !== undefined) {
        input.tool_choice =
          r.tool_choice === 'look' ? { type: 'function', function: { name: 'look' } } : r.tool_choice;
      }
      return input;
    });
}

/** The client's request in the protocol's own wire format, mapped back by that protocol's request mapper. */
function throughProtocol(protocol: Protocol, input: TextInput): MappedRequest {
  switch (protocol) {
    case 'chat completions':
      return mapChatCompletionsRequest(toChatCompletionsRequest(input, { model: 'acme/all/chat' }));
    case 'responses':
      return mapResponsesRequest(toResponsesRequest('acme/all/chat', input));
    case 'messages':
      return mapMessagesRequest(toMessagesRequest('acme/all/chat', input));
    case 'generate content':
      return mapGenerateContentRequest(toGenerateContentRequest(input), {
        model: 'acme/all/chat',
        stream: false,
      });
  }
}

const UPSTREAMS: Record<
  Adapter,
  { body: (request: ChatRequest) => unknown; read: (body: unknown) => WireRequest }
> = {
  'openai-compatible': {
    body: (request) => openAiChatBody(request, 'up'),
    read: (body) => readOpenAiChatRequest(body, { extensions: true }),
  },
  anthropic: {
    body: (request) => anthropicMessagesBody(request, 'up'),
    read: (body) => readAnthropicMessagesRequest(body),
  },
  gemini: {
    body: (request) => geminiGenerateBody(request),
    read: (body) => readGeminiGenerateRequest(body),
  },
};

/** The temperature bound of each upstream (Anthropic's is 0 to 1): the model's entry lists it, the rules clamp to it. */
const TEMPERATURE_MAX: Record<Adapter, number> = { 'openai-compatible': 2, anthropic: 1, gemini: 2 };

/** What the client asked for, field by field, as the upstream must carry it (docs/text.md's tables). */
function expectCarried(adapter: Adapter, input: TextInput, sent: WireRequest): void {
  const notSent = new Set<string>(CHAT_FIELDS_NOT_SENT[adapter] ?? []);
  // Messages: the texts, images, tool calls and results, in order, whatever the turn boundaries.
  const system = input.messages.filter((m) => m.role === 'system').map((m) => m.content);
  expect(sent.system).toEqual(system);
  const texts: string[] = [];
  const calls: { name: string; args: unknown }[] = [];
  const results: string[] = [];
  let images = 0;
  for (const message of input.messages) {
    if (message.role === 'system') continue;
    if (message.role === 'tool') results.push(message.content as string);
    else if (typeof message.content === 'string') texts.push(message.content);
    else if (Array.isArray(message.content)) {
      for (const part of message.content) {
        if (part.type === 'text') texts.push(part.text);
        else images += 1;
      }
    }
    for (const call of message.tool_calls ?? []) {
      calls.push({ name: call.function.name, args: JSON.parse(call.function.arguments) });
    }
  }
  expect(sent.turns.flatMap((t) => t.texts)).toEqual(texts);
  expect(sent.turns.flatMap((t) => t.toolCalls).map((c) => ({ name: c.name, args: c.args }))).toEqual(calls);
  expect(sent.turns.flatMap((t) => t.toolResults).map((r) => r.content)).toEqual(results);
  const sentImages = sent.turns.flatMap((t) => t.images);
  expect(sentImages).toHaveLength(images);
  for (const image of sentImages)
    expect(image).toMatchObject({ kind: 'bytes', mediaType: 'image/png', base64: PNG });
  expect(sent.tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);

  // Anthropic's extended thinking: on for a level with room for it and no forced tool, and then its rules.
  const forced = input.tool_choice === 'required' || typeof input.tool_choice === 'object';
  const maxTokens = input.max_tokens ?? (adapter === 'anthropic' ? 4096 : undefined);
  const thinking =
    adapter === 'anthropic' &&
    input.reasoning_effort !== undefined &&
    !forced &&
    thinkingBudget(input.reasoning_effort, maxTokens!) !== undefined;

  expect(sent.maxTokens).toBe(maxTokens);
  const sampling = [
    ['temperature', 'temperature'],
    ['top_p', 'topP'],
    ['top_k', 'topK'],
    ['frequency_penalty', 'frequencyPenalty'],
    ['presence_penalty', 'presencePenalty'],
  ] as const;
  for (const [field, neutral] of sampling) {
    let expected = notSent.has(field) ? undefined : input[field];
    if (field === 'temperature' && expected !== undefined)
      expected = Math.min(expected, TEMPERATURE_MAX[adapter]);
    if (thinking && (field === 'temperature' || field === 'top_k')) expected = undefined;
    if (thinking && field === 'top_p' && expected !== undefined) expected = Math.max(expected, 0.95);
    expect([field, sent[neutral]]).toEqual([field, expected]);
  }
  const stop = input.stop === undefined ? [] : typeof input.stop === 'string' ? [input.stop] : input.stop;
  expect(sent.stop).toEqual(stop);
  if (input.tool_choice !== undefined) {
    const choice =
      typeof input.tool_choice === 'object' ? { name: input.tool_choice.function.name } : input.tool_choice;
    expect(sent.toolChoice).toEqual(choice);
  }
  if (input.response_format !== undefined && !notSent.has('response_format')) {
    expect(sent.responseFormat?.type === 'text' ? 'text' : 'json').toBe(
      input.response_format.type === 'text' ? 'text' : 'json',
    );
    if (input.response_format.type === 'json_schema') {
      expect(sent.responseFormat?.schema).toEqual(input.response_format.json_schema?.['schema']);
    }
  } else {
    expect(sent.responseFormat).toBeUndefined();
  }
  if (input.reasoning_effort === undefined) {
    expect(sent.reasoning).toBeUndefined();
  } else if (adapter === 'openai-compatible') {
    expect(sent.reasoning).toEqual({ effort: input.reasoning_effort });
  } else if (thinking) {
    expect(sent.reasoning).toMatchObject({
      enabled: true,
      budgetTokens: thinkingBudget(input.reasoning_effort, maxTokens!),
    });
  } else if (adapter === 'anthropic') {
    expect(sent.reasoning).toMatchObject({ enabled: false });
  } else {
    // Without max_tokens, Google's own budgets of the levels (its OpenAI compatibility: 1024, 8192, 24576).
    const google: Record<string, number> = { none: 0, low: 1024, medium: 8192, high: 24_576 };
    const budget =
      input.reasoning_effort === 'none'
        ? 0
        : input.max_tokens === undefined
          ? google[input.reasoning_effort]
          : (thinkingBudget(input.reasoning_effort, input.max_tokens) ?? 0);
    expect(sent.reasoning).toMatchObject({ budgetTokens: budget });
  }
}

describe('client request -> upstream body, for every inbound protocol and every upstream', () => {
  for (const protocol of Object.keys(SAYS) as Protocol[]) {
    for (const adapter of Object.keys(UPSTREAMS) as Adapter[]) {
      it(`${protocol} -> ${adapter}: every field the upstream has a name for arrives`, () => {
        const model: ModelLimits = {
          ...EVERYTHING,
          parameters: {
            ...EVERYTHING.parameters,
            temperature: { minimum: 0, maximum: TEMPERATURE_MAX[adapter] },
          },
          notSent: CHAT_FIELDS_NOT_SENT[adapter] ?? [],
        };
        fc.assert(
          fc.property(requestArb(protocol), (input) => {
            const { input: ruled } = applyFieldRules(throughProtocol(protocol, input), model);
            const upstream = UPSTREAMS[adapter];
            const sent = upstream.read(upstream.body(ruled));
            expectCarried(adapter, input, sent);
          }),
          { numRuns: 150 },
        );
      });
    }
  }
});
