import fc from 'fast-check';
import type { TextContentPart, TextInput, TextMessage } from '../canonical/text-input';
import { withReasoning } from '../canonical/testing/reasoning-arbitrary';
import { mapResponsesRequest } from './request';
import { toResponsesRequest } from '../testing/responses-request';

/** Keeps a tool message only when an earlier tool call exists, and points it at one of them. */
function answerEarlierCalls(list: TextMessage[]): TextMessage[] {
  const ids: string[] = [];
  return list.flatMap((message, index) => {
    ids.push(...(message.tool_calls ?? []).map((call) => call.id));
    if (message.role !== 'tool') return [message];
    return ids.length === 0 ? [] : [{ ...message, tool_call_id: ids[index % ids.length]! }];
  });
}

/**
 * Any canonical input Responses can express, written as a Responses request, maps back to itself. Outside the
 * generator (see toResponsesRequest): message names, assistant parts lists and images, the sampling fields the
 * Responses API lacks and `stop`; a reasoning_content other than the thinking blocks' text and more (see
 * assistantReasoning); and a content-less assistant message right after another assistant message (its
 * function_call items join that message, as OpenAI reads them).
 */
const text = fc.string({ maxLength: 12 });
const id = fc.string({ minLength: 1, maxLength: 8 });

const textPart = text.map((value): TextContentPart => ({ type: 'text', text: value }));
const imagePart = fc
  .record(
    { url: fc.webUrl(), detail: fc.constantFrom('auto' as const, 'low' as const, 'high' as const) },
    { requiredKeys: ['url'] },
  )
  .map((image): TextContentPart => ({ type: 'image_url', image_url: image }));
const content = fc.oneof(text, fc.array(fc.oneof(textPart, imagePart), { maxLength: 3 }));

const toolCall = fc.record({
  id,
  type: fc.constant('function' as const),
  function: fc.record({ name: id, arguments: fc.json() }),
});

const message: fc.Arbitrary<TextMessage> = fc.oneof(
  fc.record({ role: fc.constantFrom('system' as const, 'developer' as const, 'user' as const), content }),
  withReasoning(fc.record({ role: fc.constant('assistant' as const), content: text })),
  withReasoning(
    fc.record({
      role: fc.constant('assistant' as const),
      content: fc.option(text, { nil: null }),
      tool_calls: fc.array(toolCall, { minLength: 1, maxLength: 3 }),
    }),
  ),
  fc.record({ role: fc.constant('tool' as const), tool_call_id: id, content }),
);

const messages = fc
  .array(message, { maxLength: 8 })
  .map(answerEarlierCalls)
  .filter(
    (list) =>
      !list.some((m, i) => m.role === 'assistant' && m.content === null && list[i - 1]?.role === 'assistant'),
  );

const number = fc.double({ min: -10, max: 10, noNaN: true });

const input: fc.Arbitrary<TextInput> = fc.record(
  {
    messages,
    max_tokens: fc.nat(),
    temperature: number,
    top_p: number,
    parallel_tool_calls: fc.boolean(),
    tools: fc.array(
      fc.record({
        type: fc.constant('function' as const),
        function: fc.record(
          {
            name: id,
            description: text,
            parameters: fc.constant({ type: 'object', properties: { q: { type: 'string' } } }),
            strict: fc.boolean(),
          },
          { requiredKeys: ['name'] },
        ),
      }),
      { maxLength: 3 },
    ),
    tool_choice: fc.oneof(
      fc.constantFrom('auto' as const, 'none' as const, 'required' as const),
      id.map((name) => ({ type: 'function' as const, function: { name } })),
    ),
    response_format: fc.oneof(
      fc.constantFrom({ type: 'text' as const }, { type: 'json_object' as const }),
      fc.record({
        type: fc.constant('json_schema' as const),
        json_schema: fc.record({ name: id, schema: fc.constant({ type: 'object' }), strict: fc.boolean() }),
      }),
    ),
    reasoning_effort: fc.constantFrom('none', 'minimal', 'low', 'medium', 'high', 'xhigh'),
  },
  { requiredKeys: ['messages'] },
);

describe('toResponsesRequest then mapResponsesRequest', () => {
  it('gives back the canonical input, with a path for every field', () => {
    fc.assert(
      fc.property(input, fc.boolean(), (canonical, stream) => {
        const mapped = mapResponsesRequest(toResponsesRequest('some/model', canonical, stream));
        expect(mapped.input).toEqual(canonical);
        expect(mapped.model).toBe('some/model');
        expect(mapped.stream).toBe(stream);
        expect(Object.keys(mapped.paths).sort()).toEqual(Object.keys(canonical).sort());
        expect(mapped.ignored).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
