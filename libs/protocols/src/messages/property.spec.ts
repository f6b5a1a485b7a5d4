import fc from 'fast-check';
import type { TextContentPart, TextInput, TextMessage } from '../canonical/text-input';
import { withReasoning } from '../canonical/testing/reasoning-arbitrary';
import { mapMessagesRequest } from './request';
import { toMessagesRequest } from '../testing/messages-request';

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
 * Any canonical input Messages can express, written as a Messages request, maps back to itself. Outside the
 * generator (see toMessagesRequest): system or developer messages after the first message, names, image
 * `detail`, assistant parts lists, empty text beside tool calls, non-object or non-canonically spaced tool
 * arguments, a reasoning_content other than the thinking blocks' text and more (see assistantReasoning), tools without parameters or with `strict`, parallel_tool_calls without tool_choice, and the fields
 * Messages has no name for (min_p, top_a, penalties, reasoning_effort, response_format).
 */
const text = fc.string({ maxLength: 12 });
const id = fc.string({ minLength: 1, maxLength: 8 });

const textPart = text.map((value): TextContentPart => ({ type: 'text', text: value }));
const imageUrl = fc.oneof(
  fc.webUrl(),
  fc.base64String({ maxLength: 16 }).map((data) => `data:image/png;base64,${data}`),
);
const imagePart = imageUrl.map((url): TextContentPart => ({ type: 'image_url', image_url: { url } }));
const content = fc.oneof(text, fc.array(fc.oneof(textPart, imagePart), { maxLength: 3 }));

const toolCall = fc.record({
  id,
  type: fc.constant('function' as const),
  function: fc.record({
    name: id,
    arguments: fc
      .dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }))
      .map((value) => JSON.stringify(value)),
  }),
});

const turn: fc.Arbitrary<TextMessage> = fc.oneof(
  fc.record({ role: fc.constant('user' as const), content }),
  withReasoning(fc.record({ role: fc.constant('assistant' as const), content: text })),
  withReasoning(
    fc.record({
      role: fc.constant('assistant' as const),
      content: fc.option(fc.string({ minLength: 1, maxLength: 12 }), { nil: null }),
      tool_calls: fc.array(toolCall, { minLength: 1, maxLength: 3 }),
    }),
  ),
  fc.record({ role: fc.constant('tool' as const), tool_call_id: id, content }),
);

const system = fc.record({
  role: fc.constant('system' as const),
  content: fc.oneof(text, fc.array(textPart, { maxLength: 3 })),
});

const messages = fc
  .tuple(fc.option(system, { nil: undefined }), fc.array(turn, { maxLength: 8 }).map(answerEarlierCalls))
  .map(([first, rest]): TextMessage[] => (first ? [first, ...rest] : rest));

const number = fc.double({ min: -10, max: 10, noNaN: true });
const choice = fc.oneof(
  fc.constantFrom('auto' as const, 'none' as const, 'required' as const),
  id.map((name) => ({ type: 'function' as const, function: { name } })),
);

const input: fc.Arbitrary<TextInput> = fc
  .record(
    {
      messages,
      max_tokens: fc.nat(),
      temperature: number,
      top_p: number,
      top_k: fc.nat(),
      stop: fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 4 }),
      tools: fc.array(
        fc.record({
          type: fc.constant('function' as const),
          function: fc.record(
            {
              name: id,
              description: text,
              parameters: fc.constant({ type: 'object', properties: { q: { type: 'string' } } }),
            },
            { requiredKeys: ['name', 'parameters'] },
          ),
        }),
        { maxLength: 3 },
      ),
      tool_choice: choice,
      parallel_tool_calls: fc.boolean(),
    },
    { requiredKeys: ['messages', 'max_tokens'] },
  )
  .map((value) => {
    if (value.tool_choice === undefined) delete value.parallel_tool_calls;
    return value;
  });

describe('toMessagesRequest then mapMessagesRequest', () => {
  it('gives back the canonical input, with a path for every field', () => {
    fc.assert(
      fc.property(input, fc.boolean(), (canonical, stream) => {
        const mapped = mapMessagesRequest(toMessagesRequest('some/model', canonical, stream));
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
