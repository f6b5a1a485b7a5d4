import fc from 'fast-check';
import type {
  TextContentPart,
  TextInput,
  TextMessage,
  TextThinkingBlock,
  TextTool,
  TextToolCall,
} from '../canonical/text-input';
import { mapChatCompletionsRequest } from './request';
import { toChatCompletionsRequest } from '../testing/chat-completions-request';

/**
 * Any canonical input written as a chat-completions body (and sent as JSON) maps back to itself. What the
 * protocol cannot express, so the generator does not produce it: null content on a role other than assistant,
 * `tool_call_id` outside a tool message, `tool_calls` outside an assistant message, `name` on a tool message
 * (OpenAI refuses each of them, and so does the mapper).
 */
const text = fc.string({ maxLength: 12 });
const key = text.filter((k) => k !== '__proto__');
const jsonObject = fc.dictionary(key, fc.oneof(text, fc.integer(), fc.boolean()), { maxKeys: 3 });
/** A finite number, never -0 (JSON has no -0). */
const number = fc
  .double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })
  .map((x) => (x === 0 ? 0 : x));

const textPart: fc.Arbitrary<TextContentPart> = fc.record({ type: fc.constant('text' as const), text });
const imagePart: fc.Arbitrary<TextContentPart> = fc.record({
  type: fc.constant('image_url' as const),
  image_url: fc.record(
    { url: fc.webUrl(), detail: fc.constantFrom('auto' as const, 'low' as const, 'high' as const) },
    { requiredKeys: ['url'] },
  ),
});
const parts = fc.array(fc.oneof(textPart, imagePart), { maxLength: 3 });
const toolCall: fc.Arbitrary<TextToolCall> = fc.record({
  id: text,
  type: fc.constant('function' as const),
  function: fc.record({ name: text, arguments: text }),
});

/** A signed block as Anthropic sends it: any text, a non-empty signature; or a redacted block's data. */
const thinkingBlock: fc.Arbitrary<TextThinkingBlock> = fc.oneof(
  fc.record({
    type: fc.constant('thinking' as const),
    thinking: text,
    signature: fc.string({ minLength: 1 }),
  }),
  fc.record({ type: fc.constant('redacted_thinking' as const), data: fc.string({ minLength: 1 }) }),
);

const message: fc.Arbitrary<TextMessage> = fc.oneof(
  fc.record(
    {
      role: fc.constantFrom('system' as const, 'developer' as const, 'user' as const),
      content: fc.oneof(text, parts),
      name: text,
    },
    { requiredKeys: ['role', 'content'] },
  ),
  fc.record(
    {
      role: fc.constant('assistant' as const),
      content: fc.oneof(text, fc.array(textPart, { maxLength: 2 }), fc.constant(null)),
      name: text,
      tool_calls: fc.array(toolCall, { maxLength: 3 }),
      reasoning_content: text,
      thinking_blocks: fc.array(thinkingBlock, { maxLength: 3 }),
    },
    { requiredKeys: ['role', 'content'] },
  ),
  fc.record({
    role: fc.constant('tool' as const),
    content: fc.oneof(text, fc.array(textPart, { maxLength: 2 })),
    tool_call_id: text,
  }),
);

const tool: fc.Arbitrary<TextTool> = fc.record({
  type: fc.constant('function' as const),
  function: fc.record(
    { name: text, description: text, parameters: jsonObject, strict: fc.boolean() },
    { requiredKeys: ['name'] },
  ),
});

const input: fc.Arbitrary<TextInput> = fc.record(
  {
    messages: fc.array(message, { minLength: 1, maxLength: 5 }),
    max_tokens: fc.integer({ min: 1, max: 200_000 }),
    temperature: number,
    top_p: number,
    top_k: fc.integer({ min: 0, max: 1000 }),
    min_p: number,
    top_a: number,
    frequency_penalty: number,
    presence_penalty: number,
    repetition_penalty: number,
    stop: fc.oneof(text, fc.array(text, { maxLength: 5 })),
    reasoning_effort: fc.constantFrom('none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'),
    tools: fc.array(tool, { maxLength: 3 }),
    tool_choice: fc.oneof(
      fc.constantFrom('auto' as const, 'none' as const, 'required' as const),
      fc.record({ type: fc.constant('function' as const), function: fc.record({ name: text }) }),
    ),
    parallel_tool_calls: fc.boolean(),
    response_format: fc.oneof(
      fc.record({ type: fc.constantFrom('text' as const, 'json_object' as const) }),
      fc.record({ type: fc.constant('json_schema' as const), json_schema: jsonObject }),
    ),
  },
  { requiredKeys: ['messages'] },
);

describe('toChatCompletionsRequest then mapChatCompletionsRequest', () => {
  it('gives back the same canonical input, paths for every field present, nothing ignored', () => {
    fc.assert(
      fc.property(input, fc.boolean(), fc.boolean(), (canonical, stream, includeUsage) => {
        const body = toChatCompletionsRequest(canonical, { model: 'acme/m1', stream, includeUsage });
        const mapped = mapChatCompletionsRequest(JSON.parse(JSON.stringify(body)));
        expect(mapped.input).toEqual(canonical);
        expect(mapped.model).toBe('acme/m1');
        expect(mapped.stream).toBe(stream);
        expect(mapped.includeUsage).toBe(stream && includeUsage);
        expect(mapped.ignored).toEqual([]);
        expect(Object.keys(mapped.paths).sort()).toEqual(Object.keys(canonical).sort());
        if (canonical.max_tokens !== undefined) expect(mapped.paths.max_tokens).toBe('max_completion_tokens');
      }),
      { numRuns: 300 },
    );
  });
});
