import { tokenCount, type ChatEvent, type ChatUsage, type FinishReason } from './chat-adapter';
import type { SseFrame } from './sse';
import { UpstreamError } from './upstream-error';
import { cutShort, parseFrameJson, type FrameDecoder } from './upstream-stream';

type Json = Record<string, unknown>;

const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'LANGUAGE',
]);

/**
 * Decodes Gemini streamGenerateContent (`alt=sse`) chunks, each a GenerateContentResponse: parts of the first
 * candidate (text, `thought` text as reasoning, whole `functionCall`s as one fragment each), `usageMetadata`
 * (the latest wins), `finishReason`. Gemini has no end marker, so a chunk with a finishReason is the end: a
 * stream that closes without one was cut. A prompt blocked by `promptFeedback.blockReason` is `rejected`.
 */
export class GeminiGenerateDecoder implements FrameDecoder {
  private usage: ChatUsage | undefined;
  private finish: FinishReason | undefined;
  private toolCalls = 0;

  decode(frame: SseFrame): ChatEvent[] {
    const chunk = parseFrameJson(frame);
    if (chunk.error) throw streamError(chunk.error);
    const blocked = ((chunk.promptFeedback ?? {}) as Json).blockReason;
    if (typeof blocked === 'string') {
      throw new UpstreamError('rejected', 'the upstream refused the prompt', { upstreamText: frame.data });
    }
    if (chunk.usageMetadata) this.usage = usageOf(chunk.usageMetadata as Json);
    const candidate = (Array.isArray(chunk.candidates) ? chunk.candidates[0] : undefined) as Json | undefined;
    if (!candidate) return [];
    const parts = ((candidate.content ?? {}) as Json).parts;
    const events = Array.isArray(parts) ? (parts as Json[]).flatMap((part) => this.partEvents(part)) : [];
    if (
      typeof candidate.finishReason === 'string' &&
      candidate.finishReason !== 'FINISH_REASON_UNSPECIFIED'
    ) {
      this.finish = finishOf(candidate.finishReason);
    }
    return events;
  }

  end(): ChatEvent[] {
    if (this.finish === undefined) throw cutShort();
    const reason = this.finish === 'stop' && this.toolCalls > 0 ? 'tool_calls' : this.finish;
    const events: ChatEvent[] = this.usage ? [{ type: 'usage', ...this.usage }] : [];
    return [...events, { type: 'finish', reason }];
  }

  private partEvents(part: Json): ChatEvent[] {
    if (typeof part.text === 'string' && part.text !== '') {
      return [{ type: part.thought === true ? 'reasoning' : 'text', delta: part.text }];
    }
    const call = part.functionCall as Json | undefined;
    if (!call) return [];
    const event: ChatEvent = {
      type: 'tool_call',
      index: this.toolCalls++,
      argumentsDelta: JSON.stringify(call.args ?? {}),
    };
    if (typeof call.id === 'string') event.id = call.id;
    if (typeof call.name === 'string') event.name = call.name;
    return [event];
  }
}

function finishOf(reason: string): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  return FILTERED.has(reason) ? 'content_filter' : 'stop';
}

/** Output counts the thoughts too, as OpenAI's completion tokens count reasoning. */
function usageOf(usage: Json): ChatUsage {
  const thoughts = tokenCount(usage.thoughtsTokenCount);
  return {
    inputTokens: tokenCount(usage.promptTokenCount),
    cachedInputTokens: tokenCount(usage.cachedContentTokenCount),
    outputTokens: tokenCount(usage.candidatesTokenCount) + thoughts,
    reasoningTokens: thoughts,
  };
}

function streamError(error: unknown): UpstreamError {
  const code = (error as Json).code;
  const status = typeof code === 'number' ? code : undefined;
  const kind = status !== undefined && (status === 429 || status >= 500) ? 'retryable' : 'failed';
  return new UpstreamError(kind, 'the upstream reported an error inside the stream', {
    status,
    upstreamText: JSON.stringify(error),
  });
}
