import fc from 'fast-check';
import { ResponseStream } from 'openai/lib/responses/ResponseStream';
import { Stream } from 'openai/streaming';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { aggregate } from '../canonical/text-input';
import { answerEvents } from '../canonical/testing/reasoning-arbitrary';
import { writeResponsesResponse } from './response';
import { ResponsesStreamWriter } from './stream';

const BASE = { id: 'req_P', model: 'anthropic/claude-sonnet-4', created: 1_700_000_000 };

/** The SDK's SSE parser and its ResponseStream accumulator (which checks ids, indexes and order) over our frames. */
async function finalResponse(frames: string[]) {
  const response = new Response(frames.join(''), { headers: { 'content-type': 'text/event-stream' } });
  const events = Stream.fromSSEResponse<ResponseStreamEvent>(response, new AbortController());
  return ResponseStream.fromReadableStream(events.toReadableStream()).finalResponse();
}

/**
 * The output without the helper's own `parsed` fields (not on the wire) and without the message item's status:
 * a stream closes the message `completed` when a function call follows it, while the non-streamed body gives it
 * the response's final status (`incomplete` after a length or content-filter finish), an older difference that
 * has nothing to do with reasoning.
 */
const comparable = (items: unknown[]): unknown =>
  JSON.parse(
    JSON.stringify(items, (key, value: unknown) =>
      key.startsWith('parsed') || key === 'status' ? undefined : value,
    ),
  );

describe('ResponsesStreamWriter read back by the openai SDK ResponseStream (property)', () => {
  it('assembles the output of the non-streamed Response: reasoning items with encrypted_content, message, calls', async () => {
    await fc.assert(
      fc.asyncProperty(answerEvents, async (events) => {
        const result = aggregate(events, BASE);
        const writer = new ResponsesStreamWriter(BASE);
        const frames = [...writer.start(), ...events.flatMap((e) => writer.event(e)), ...writer.end(result)];
        const final = await finalResponse(frames);
        const body = writeResponsesResponse(result);
        expect(comparable(final.output)).toEqual(comparable(body['output'] as unknown[]));
        expect(final.status).toBe(body['status']);
        expect(final.usage).toEqual(body['usage']);
      }),
      { numRuns: 150 },
    );
  });
});
