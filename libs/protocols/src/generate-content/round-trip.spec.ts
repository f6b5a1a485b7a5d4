import fc from 'fast-check';
import type { TextContentPart, TextInput, TextMessage, TextTool } from '../canonical/text-input';
import { assistantReasoning } from '../canonical/testing/reasoning-arbitrary';
import { mapGenerateContentRequest } from './request';
import { toGenerateContentRequest } from '../testing/generate-content-request';

/**
 * Canonical inputs Gemini can express: an optional leading system message, then exchanges in turn order (a user
 * message; an assistant answer, with tool calls answered by tool messages). Left out because generate content
 * cannot say them (see toGenerateContentRequest): min_p, top_a, repetition_penalty, parallel_tool_calls, message
 * names, image detail, a stop string (it becomes a list), a json_schema name other than `response`, a lone text
 * part as a list (it becomes a string), two user messages in a row (they share one turn), and a reasoning_content
 * other than the thinking blocks' text and more (see assistantReasoning).
 */
const text = fc.string({ maxLength: 12 });
const image: fc.Arbitrary<TextContentPart> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('image/png', 'image/jpeg', 'image/webp', 'image/gif'),
      fc.base64String({ minLength: 4, maxLength: 16 }),
    )
    .filter(([, data]) => data.length > 0)
    .map(([type, data]) => ({
      type: 'image_url' as const,
      image_url: { url: `data:${type};base64,${data}` },
    })),
  fc.webUrl({ validSchemes: ['https'] }).map((url) => ({ type: 'image_url' as const, image_url: { url } })),
);
const userContent: fc.Arbitrary<TextMessage['content']> = fc.oneof(
  text,
  fc
    .tuple(
      fc.array(
        fc.oneof(
          text.map((t) => ({ type: 'text' as const, text: t })),
          image,
        ),
        { maxLength: 3 },
      ),
      image,
    )
    .map(([parts, last]) => [...parts, last]),
);
const args = fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const toolName = fc.constantFrom('get_weather', 'search', 'lookup_time');

interface Exchange {
  user: TextMessage['content'];
  answer?: {
    content: string | null;
    reasoning?: Pick<TextMessage, 'reasoning_content' | 'thinking_blocks'>;
    calls: { name: string; args: string }[];
    results: string[];
    order: number[];
  };
}
const exchange: fc.Arbitrary<Exchange> = fc.record(
  {
    user: userContent,
    answer: fc
      .array(fc.record({ name: toolName, args: args.map((a) => JSON.stringify(a)) }), { maxLength: 3 })
      .chain((calls) =>
        fc.record({
          content: calls.length ? fc.option(text, { nil: null }) : text,
          reasoning: fc.option(assistantReasoning, { nil: undefined }),
          calls: fc.constant(calls),
          results: fc.array(text, { minLength: calls.length, maxLength: calls.length }),
          order: fc.shuffledSubarray(
            calls.map((_, i) => i),
            { minLength: calls.length, maxLength: calls.length },
          ),
        }),
      ),
  },
  { requiredKeys: ['user'] },
);

function messagesOf(system: string | undefined, exchanges: Exchange[]): TextMessage[] {
  const messages: TextMessage[] = system === undefined ? [] : [{ role: 'system', content: system }];
  let callCount = 0;
  for (const { user, answer } of exchanges) {
    messages.push({ role: 'user', content: user });
    if (!answer) break;
    const ids = answer.calls.map(() => `id_${callCount++}`);
    const assistant: TextMessage = { role: 'assistant', content: answer.content, ...answer.reasoning };
    if (answer.calls.length) {
      assistant.tool_calls = answer.calls.map((call, i) => ({
        id: ids[i]!,
        type: 'function',
        function: { name: call.name, arguments: call.args },
      }));
    }
    messages.push(assistant);
    for (const i of answer.order)
      messages.push({ role: 'tool', tool_call_id: ids[i]!, content: answer.results[i]! });
  }
  return messages;
}

const tool: fc.Arbitrary<TextTool> = fc.record(
  {
    type: fc.constant('function' as const),
    function: fc.record(
      {
        name: toolName,
        description: text,
        parameters: fc.constant({
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        }),
      },
      { requiredKeys: ['name'] },
    ),
  },
  { requiredKeys: ['type', 'function'] },
);
/** A JSON number: the wire has no -0. */
const number = fc.double({ noNaN: true, noDefaultInfinity: true, min: -2, max: 2 }).map((n) => n + 0);

const input: fc.Arbitrary<TextInput> = fc
  .record(
    {
      system: text,
      exchanges: fc.array(exchange, { minLength: 1, maxLength: 4 }),
      max_tokens: fc.integer({ min: 1, max: 100_000 }),
      temperature: number,
      top_p: number,
      top_k: fc.integer({ min: 1, max: 100 }),
      presence_penalty: number,
      frequency_penalty: number,
      stop: fc.array(text, { maxLength: 4 }),
      reasoning_effort: fc.constantFrom('none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'),
      tools: fc.uniqueArray(tool, { minLength: 1, maxLength: 3, selector: (t) => t.function.name }),
      tool_choice: fc.oneof(
        fc.constantFrom('auto' as const, 'none' as const, 'required' as const),
        toolName.map((name) => ({ type: 'function' as const, function: { name } })),
      ),
      response_format: fc.oneof(
        fc.constantFrom({ type: 'text' as const }, { type: 'json_object' as const }),
        fc.constant({
          type: 'json_schema' as const,
          json_schema: {
            name: 'response',
            schema: { type: 'object', properties: { a: { type: 'integer' } } },
          },
        }),
      ),
    },
    { requiredKeys: ['exchanges'] },
  )
  .map(({ system, exchanges, ...fields }) => ({ messages: messagesOf(system, exchanges), ...fields }));

describe('generate content round trip', () => {
  it('any expressible canonical input, written as a generate-content request, maps back to itself', () => {
    fc.assert(
      fc.property(input, (canonical) => {
        const body = JSON.parse(JSON.stringify(toGenerateContentRequest(canonical))) as unknown;
        const mapped = mapGenerateContentRequest(body, { model: 'acme/m', stream: false });
        expect(mapped.input).toEqual(canonical);
        expect(Object.keys(mapped.paths).sort()).toEqual(Object.keys(canonical).sort());
      }),
      { numRuns: 300 },
    );
  });
});
