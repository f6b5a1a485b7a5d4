import type { ChatEvent, FinishReason } from '@gen/contracts';
import fc from 'fast-check';
import { ChatCompletionStream } from 'openai/lib/ChatCompletionStream';
import { Stream } from 'openai/streaming';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { aggregate } from '../canonical/text-input';
import { writeChatCompletionsResponse } from './response';
import { ChatCompletionsStreamWriter } from './stream';

const BASE = { id: 'req_P', model: 'acme/m1', created: 1767225600 };

/**
 * Any canonical event sequence an adapter produces (text and reasoning deltas, signatures and redacted reasoning
 * in any order, tool calls one after the other with their id and name on the first fragment, usage, one finish),
 * streamed by the writer and read back by the openai SDK's own SSE parser and chunk accumulator, gives the message
 * of the non-streamed body; the thinking blocks collected from the chunks are the body's `thinking_blocks`.
 */
const delta = fc.string({ minLength: 1, maxLength: 8 });
const call = (index: number) =>
  fc
    .record({
      name: fc.string({ minLength: 1, maxLength: 6 }),
      fragments: fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 4 }),
    })
    .map(({ name, fragments }): ChatEvent[] =>
      fragments.map((argumentsDelta, k) =>
        k === 0
          ? { type: 'tool_call', index, id: `call_${index}`, name, argumentsDelta }
          : { type: 'tool_call', index, argumentsDelta },
      ),
    );
const events = fc
  .record({
    prose: fc.array(
      fc.oneof(
        delta.map((d): ChatEvent => ({ type: 'text', delta: d })),
        delta.map((d): ChatEvent => ({ type: 'reasoning', delta: d })),
        delta.map((d): ChatEvent => ({ type: 'reasoning_signature', signature: d })),
        delta.map((d): ChatEvent => ({ type: 'redacted_reasoning', data: d })),
      ),
      { maxLength: 6 },
    ),
    calls: fc
      .integer({ min: 0, max: 3 })
      .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => call(i)))),
    usage: fc.option(
      fc.record({
        inputTokens: fc.nat(100000),
        cachedInputTokens: fc.nat(100),
        outputTokens: fc.nat(100000),
        reasoningTokens: fc.nat(100),
      }),
    ),
    finish: fc.constantFrom<FinishReason>('stop', 'length', 'tool_calls', 'content_filter'),
  })
  .map(({ prose, calls, usage, finish }): ChatEvent[] => [
    ...prose,
    ...calls.flat(),
    ...(usage ? [{ type: 'usage' as const, ...usage }] : []),
    { type: 'finish', reason: finish },
  ]);

async function readWithSdk(frames: string[]) {
  const response = new Response(frames.join(''), { headers: { 'content-type': 'text/event-stream' } });
  const chunks = Stream.fromSSEResponse<ChatCompletionChunk>(response, new AbortController());
  const [raw, forAccumulator] = chunks.tee();
  const seen: ChatCompletionChunk[] = [];
  for await (const chunk of raw) seen.push(chunk);
  const final = await ChatCompletionStream.fromReadableStream(
    forAccumulator.toReadableStream(),
  ).finalChatCompletion();
  return { seen, final };
}

describe('ChatCompletionsStreamWriter read back by the openai SDK (property)', () => {
  it('the SDK assembles the message, finish reason and usage of the non-streamed body', async () => {
    await fc.assert(
      fc.asyncProperty(events, fc.boolean(), async (list, includeUsage) => {
        const result = aggregate(list, BASE);
        const writer = new ChatCompletionsStreamWriter(BASE, { includeUsage });
        const frames = [...writer.start(), ...list.flatMap((e) => writer.event(e)), ...writer.end(result)];
        const { seen, final } = await readWithSdk(frames);
        const body = writeChatCompletionsResponse(result);

        expect(final.id).toBe(body.id);
        expect(final.choices).toHaveLength(1);
        expect(final.choices[0]?.finish_reason).toBe(body.choices[0].finish_reason);
        expect(final.choices[0]?.message.content).toBe(body.choices[0].message.content);
        expect(final.choices[0]?.message.tool_calls ?? []).toEqual(body.choices[0].message.tool_calls ?? []);
        const reasoning = seen
          .flatMap((c) => c.choices)
          .map((c) => (c.delta as { reasoning_content?: string }).reasoning_content ?? '')
          .join('');
        expect(reasoning).toBe(result.reasoning);
        const blocks = seen
          .flatMap((c) => c.choices)
          .flatMap((c) => (c.delta as { thinking_blocks?: unknown[] }).thinking_blocks ?? []);
        expect(blocks).toEqual(body.choices[0].message.thinking_blocks ?? []);
        expect(seen.flatMap((c) => c.choices).filter((c) => c.finish_reason !== null)).toHaveLength(1);
        if (includeUsage) expect(final.usage).toEqual(body.usage);
        else expect(seen.every((c) => !('usage' in c))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
