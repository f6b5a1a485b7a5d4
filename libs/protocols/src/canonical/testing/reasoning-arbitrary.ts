import type { ChatEvent } from '@gen/contracts';
import fc from 'fast-check';
import { signedText } from '../reasoning';
import type { TextMessage, TextThinkingBlock } from '../text-input';

/** A signed block as Anthropic sends it: any text with a non-empty signature, or a redacted block's data. */
export const thinkingBlock: fc.Arbitrary<TextThinkingBlock> = fc.oneof(
  fc.record({
    type: fc.constant('thinking' as const),
    thinking: fc.string({ maxLength: 12 }),
    signature: fc.string({ minLength: 1, maxLength: 12 }),
  }),
  fc.record({
    type: fc.constant('redacted_thinking' as const),
    data: fc.string({ minLength: 1, maxLength: 12 }),
  }),
);

/**
 * The reasoning of an assistant message as an answer of ours gives it, for the protocols whose requests carry
 * reasoning as blocks or items (messages, responses, generate content): signed blocks, and `reasoning_content`
 * their text followed by the unsigned rest, set only when not empty. Those protocols read reasoning_content back
 * from the blocks' text, so any other value does not round-trip.
 */
export const assistantReasoning: fc.Arbitrary<Pick<TextMessage, 'reasoning_content' | 'thinking_blocks'>> = fc
  .record({ blocks: fc.array(thinkingBlock, { maxLength: 3 }), unsigned: fc.string({ maxLength: 12 }) })
  .map(({ blocks, unsigned }) => {
    const text = signedText(blocks) + unsigned;
    return {
      ...(text === '' ? {} : { reasoning_content: text }),
      ...(blocks.length ? { thinking_blocks: blocks } : {}),
    };
  });

/** An assistant message with reasoning, or without (half the time). */
export function withReasoning(message: fc.Arbitrary<TextMessage>): fc.Arbitrary<TextMessage> {
  return fc
    .tuple(message, fc.option(assistantReasoning, { nil: undefined }))
    .map(([m, reasoning]) => (reasoning ? { ...m, ...reasoning } : m));
}

const delta = fc.string({ minLength: 1, maxLength: 8 });

/**
 * The events of an answer as the upstreams send them: a reasoning phase (blocks of reasoning deltas each closed
 * by a signature, redacted blocks, and unsigned reasoning last, from an upstream that does not sign), then text
 * deltas, then tool calls one after the other (id and name on the first fragment), usage, one finish.
 */
export const answerEvents: fc.Arbitrary<ChatEvent[]> = fc
  .record({
    blocks: fc.array(
      fc.oneof(
        fc
          .tuple(fc.array(delta, { maxLength: 3 }), delta)
          .map(([deltas, signature]): ChatEvent[] => [
            ...deltas.map((d): ChatEvent => ({ type: 'reasoning', delta: d })),
            { type: 'reasoning_signature', signature },
          ]),
        delta.map((data): ChatEvent[] => [{ type: 'redacted_reasoning', data }]),
      ),
      { maxLength: 3 },
    ),
    unsigned: fc.array(delta, { maxLength: 3 }),
    text: fc.array(delta, { maxLength: 3 }),
    calls: fc.array(
      fc.record({
        name: fc.string({ minLength: 1, maxLength: 6 }),
        args: fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
      }),
      { maxLength: 2 },
    ),
    usage: fc.record({
      inputTokens: fc.nat(1000),
      cachedInputTokens: fc.nat(1000),
      outputTokens: fc.nat(1000),
      reasoningTokens: fc.nat(1000),
    }),
    finish: fc.constantFrom(
      'stop' as const,
      'length' as const,
      'tool_calls' as const,
      'content_filter' as const,
    ),
  })
  .map(({ blocks, unsigned, text, calls, usage, finish }): ChatEvent[] => [
    ...blocks.flat(),
    ...unsigned.map((d): ChatEvent => ({ type: 'reasoning', delta: d })),
    ...text.map((d): ChatEvent => ({ type: 'text', delta: d })),
    ...calls.flatMap(({ name, args }, index): ChatEvent[] => {
      const json = JSON.stringify(args);
      const cut = Math.floor(json.length / 2);
      return [
        { type: 'tool_call', index, id: `call_${index}`, name, argumentsDelta: json.slice(0, cut) },
        { type: 'tool_call', index, argumentsDelta: json.slice(cut) },
      ];
    }),
    {
      type: 'usage',
      ...usage,
      inputTokens: usage.inputTokens + usage.cachedInputTokens,
      outputTokens: usage.outputTokens + usage.reasoningTokens,
    },
    { type: 'finish', reason: finish },
  ]);
