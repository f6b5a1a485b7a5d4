import type { ChatEvent } from '@gen/contracts';
import fc from 'fast-check';
import { aggregate } from '../canonical/text-input';
import { writeGenerateContentResponse, type GenerateContentResponse } from './response';
import { GenerateContentArrayWriter, GenerateContentSseWriter, generateContentStreamWriter } from './stream';

const BASE = { id: 'req_X', model: 'acme/m', created: 0 };

/**
 * Canonical event streams as adapters produce them: deltas, signatures and redacted reasoning, tool call fragments
 * by index, usage, finish.
 */
const events: fc.Arbitrary<ChatEvent[]> = fc
  .tuple(
    fc.array(
      fc.oneof(
        fc.string({ maxLength: 6 }).map((delta) => ({ type: 'text' as const, delta })),
        fc.string({ maxLength: 6 }).map((delta) => ({ type: 'reasoning' as const, delta })),
        fc.string({ minLength: 1, maxLength: 6 }).map((signature) => ({
          type: 'reasoning_signature' as const,
          signature,
        })),
        fc
          .string({ minLength: 1, maxLength: 6 })
          .map((data) => ({ type: 'redacted_reasoning' as const, data })),
      ),
      { maxLength: 8 },
    ),
    fc.array(fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 3 }), { maxLength: 3 }),
    fc.record({
      inputTokens: fc.nat(1000),
      cachedInputTokens: fc.nat(1000),
      reasoningTokens: fc.nat(1000),
      extra: fc.nat(1000),
    }),
    fc.constantFrom('stop' as const, 'length' as const, 'tool_calls' as const, 'content_filter' as const),
  )
  .map(([deltas, calls, usage, reason]) => {
    const fragments: ChatEvent[] = calls.flatMap((args, index) => {
      const json = JSON.stringify(args);
      const cut = Math.floor(json.length / 2);
      return [
        {
          type: 'tool_call',
          index,
          id: `call_${index}`,
          name: `f${index}`,
          argumentsDelta: json.slice(0, cut),
        },
        { type: 'tool_call', index, argumentsDelta: json.slice(cut) },
      ];
    });
    return [
      ...deltas,
      ...fragments,
      {
        type: 'usage',
        inputTokens: usage.inputTokens + usage.cachedInputTokens,
        cachedInputTokens: usage.cachedInputTokens,
        outputTokens: usage.reasoningTokens + usage.extra,
        reasoningTokens: usage.reasoningTokens,
      },
      { type: 'finish', reason },
    ];
  });

function run(writer: GenerateContentSseWriter | GenerateContentArrayWriter, stream: ChatEvent[]): string[] {
  return [
    ...writer.start(),
    ...stream.flatMap((e) => writer.event(e)),
    ...writer.end(aggregate(stream, BASE)),
  ];
}

describe('generate content stream writers', () => {
  it('SSE and array forms carry the same chunks, which add up to the non-streamed response', () => {
    fc.assert(
      fc.property(events, fc.boolean(), (stream, includeThoughts) => {
        const sse = run(new GenerateContentSseWriter(BASE, { includeThoughts }), stream);
        expect(sse.every((frame) => /^data: \{.*\}\n\n$/s.test(frame))).toBe(true);
        const sseChunks = sse.map((frame) => JSON.parse(frame.slice(6)) as GenerateContentResponse);
        const arrayChunks = JSON.parse(
          run(new GenerateContentArrayWriter(BASE, { includeThoughts }), stream).join(''),
        ) as GenerateContentResponse[];
        expect(arrayChunks).toEqual(sseChunks);

        const whole = writeGenerateContentResponse(aggregate(stream, BASE), { includeThoughts });
        const parts = sseChunks.flatMap((c) => c.candidates[0]!.content.parts);
        const join = (thought: boolean): string =>
          parts
            .filter((p) => typeof p['text'] === 'string' && (p['thought'] === true) === thought)
            .map((p) => p['text'])
            .join('');
        const wholeParts = whole.candidates[0]!.content.parts;
        const wholeText = (thought: boolean): string =>
          wholeParts
            .filter((p) => typeof p['text'] === 'string' && (p['thought'] === true) === thought)
            .map((p) => p['text'])
            .join('');
        expect(join(false)).toBe(wholeText(false));
        expect(join(true)).toBe(wholeText(true));
        expect(parts.filter((p) => p['functionCall'])).toEqual(wholeParts.filter((p) => p['functionCall']));
        // Each signed block once, in order, thoughts shown or not.
        expect(parts.filter((p) => p['thoughtSignature'])).toEqual(
          wholeParts.filter((p) => p['thoughtSignature']),
        );
        expect(parts.filter((p) => p['thoughtSignature']).length).toBe(
          aggregate(stream, BASE).thinkingBlocks.length,
        );
        // Only the last chunk finishes and reports usage; every chunk names the response.
        expect(sseChunks.map((c) => c.candidates[0]!.finishReason !== undefined)).toEqual(
          sseChunks.map((_, i) => i === sseChunks.length - 1),
        );
        expect(sseChunks.slice(0, -1).every((c) => c.usageMetadata === undefined)).toBe(true);
        expect(sseChunks.at(-1)!.usageMetadata).toEqual(whole.usageMetadata);
        expect(sseChunks.at(-1)!.candidates[0]!.finishReason).toBe(whole.candidates[0]!.finishReason);
        expect(sseChunks.every((c) => c.responseId === 'req_X' && c.modelVersion === 'acme/m')).toBe(true);
        // No empty text chunks.
        expect(parts.every((p) => p['text'] !== '')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ['stop', 'STOP'],
    ['tool_calls', 'STOP'],
    ['length', 'MAX_TOKENS'],
    ['content_filter', 'SAFETY'],
  ] as const)('finish %s is finishReason %s', (reason, name) => {
    const result = aggregate([{ type: 'finish', reason }], BASE);
    expect(writeGenerateContentResponse(result).candidates[0]?.finishReason).toBe(name);
  });

  it('usage: candidates exclude thoughts, the total is input plus output, zero optional counts are left out', () => {
    const usage = (u: Omit<Extract<ChatEvent, { type: 'usage' }>, 'type'>) =>
      writeGenerateContentResponse(aggregate([{ type: 'usage', ...u }], BASE)).usageMetadata;
    expect(usage({ inputTokens: 10, cachedInputTokens: 0, outputTokens: 7, reasoningTokens: 0 })).toEqual({
      promptTokenCount: 10,
      candidatesTokenCount: 7,
      totalTokenCount: 17,
    });
    expect(usage({ inputTokens: 10, cachedInputTokens: 4, outputTokens: 7, reasoningTokens: 5 })).toEqual({
      promptTokenCount: 10,
      candidatesTokenCount: 2,
      thoughtsTokenCount: 5,
      cachedContentTokenCount: 4,
      totalTokenCount: 17,
    });
  });

  it('arguments that are not a JSON object reach the client as {} (Gemini args are always an object)', () => {
    const result = aggregate(
      [
        { type: 'tool_call', index: 0, id: 'a', name: 'f', argumentsDelta: '' },
        { type: 'tool_call', index: 1, id: 'b', name: 'g', argumentsDelta: '{"x":' },
      ],
      BASE,
    );
    expect(writeGenerateContentResponse(result).candidates[0]?.content.parts).toEqual([
      { functionCall: { id: 'a', name: 'f', args: {} } },
      { functionCall: { id: 'b', name: 'g', args: {} } },
    ]);
  });

  it('picks SSE for alt=sse and the JSON array otherwise', () => {
    expect(generateContentStreamWriter('sse', BASE)).toBeInstanceOf(GenerateContentSseWriter);
    expect(generateContentStreamWriter('sse', BASE).contentType).toBe('text/event-stream');
    expect(generateContentStreamWriter(undefined, BASE)).toBeInstanceOf(GenerateContentArrayWriter);
    expect(generateContentStreamWriter('json', BASE).contentType).toBe('application/json');
  });
});
