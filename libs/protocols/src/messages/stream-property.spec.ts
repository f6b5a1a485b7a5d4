import { Stream } from '@anthropic-ai/sdk/core/streaming';
import { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import fc from 'fast-check';
import { aggregate } from '../canonical/text-input';
import { answerEvents } from '../canonical/testing/reasoning-arbitrary';
import { writeMessagesResponse } from './response';
import { MessagesStreamWriter } from './stream';

const BASE = { id: 'req_P', model: 'anthropic/claude-sonnet-4', created: 1_700_000_000 };

/** The SDK's own SSE decoder and MessageStream accumulator over our frames, as `messages.stream()` runs them. */
async function finalMessage(frames: string[]) {
  const response = new Response(frames.join(''), { headers: { 'content-type': 'text/event-stream' } });
  const events = Stream.fromSSEResponse(response, new AbortController());
  return MessageStream.fromReadableStream(events.toReadableStream()).finalMessage();
}

describe('MessagesStreamWriter read back by the @anthropic-ai/sdk MessageStream (property)', () => {
  it('assembles the Message of the non-streamed body: reasoning blocks with their signatures, text, tools', async () => {
    await fc.assert(
      fc.asyncProperty(answerEvents, async (events) => {
        const result = aggregate(events, BASE);
        const writer = new MessagesStreamWriter(BASE);
        const frames = [...writer.start(), ...events.flatMap((e) => writer.event(e)), ...writer.end(result)];
        const message = await finalMessage(frames);
        const body = writeMessagesResponse(result);
        expect(message.content).toEqual(body['content']);
        expect(message.stop_reason).toBe(body['stop_reason']);
        expect(message.usage).toEqual(body['usage']);
      }),
      { numRuns: 150 },
    );
  });
});
