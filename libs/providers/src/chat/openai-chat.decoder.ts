import { tokenCount, type ChatEvent, type ChatUsage, type FinishReason } from './chat-adapter';
import type { SseFrame } from './sse';
import { UpstreamError, errorKindForStatus } from './upstream-error';
import { cutShort, parseFrameJson, type FrameDecoder } from './upstream-stream';

type Json = Record<string, unknown>;

const FINISH: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

/**
 * Decodes OpenAI-compatible chat completion chunks: `choices[0].delta` content, `reasoning_content` (or
 * `reasoning`) and tool call fragments by index, `finish_reason`, `usage` in the last chunk, then `[DONE]`.
 * Usage and finish are emitted at `[DONE]`, so that `finish` is the last event.
 */
export class OpenAiChatDecoder implements FrameDecoder {
  private usage: ChatUsage | undefined;
  private finish: FinishReason | undefined;
  private done = false;

  decode(frame: SseFrame): ChatEvent[] {
    if (this.done) return [];
    if (frame.data.trim() === '[DONE]') {
      this.done = true;
      const events: ChatEvent[] = this.usage ? [{ type: 'usage', ...this.usage }] : [];
      return [...events, { type: 'finish', reason: this.finish ?? 'stop' }];
    }
    const chunk = parseFrameJson(frame);
    if (chunk.error) throw streamError(chunk.error);
    if (chunk.usage) this.usage = usageOf(chunk.usage as Json);
    const choices = Array.isArray(chunk.choices) ? (chunk.choices as Json[]) : [];
    const choice = choices[0];
    if (!choice) return [];
    if (typeof choice.finish_reason === 'string') this.finish = FINISH[choice.finish_reason] ?? 'stop';
    return deltaEvents((choice.delta ?? {}) as Json);
  }

  end(): ChatEvent[] {
    if (!this.done) throw cutShort();
    return [];
  }
}

function deltaEvents(delta: Json): ChatEvent[] {
  const events: ChatEvent[] = [];
  const reasoning = delta.reasoning_content ?? delta.reasoning;
  if (typeof reasoning === 'string' && reasoning !== '') events.push({ type: 'reasoning', delta: reasoning });
  if (typeof delta.content === 'string' && delta.content !== '')
    events.push({ type: 'text', delta: delta.content });
  const calls = Array.isArray(delta.tool_calls) ? (delta.tool_calls as Json[]) : [];
  for (const call of calls) {
    const fn = (call.function ?? {}) as Json;
    const event: ChatEvent = {
      type: 'tool_call',
      index: typeof call.index === 'number' ? call.index : 0,
      argumentsDelta: typeof fn.arguments === 'string' ? fn.arguments : '',
    };
    if (typeof call.id === 'string') event.id = call.id;
    if (typeof fn.name === 'string') event.name = fn.name;
    events.push(event);
  }
  return events;
}

function usageOf(usage: Json): ChatUsage {
  const prompt = (usage.prompt_tokens_details ?? {}) as Json;
  const completion = (usage.completion_tokens_details ?? {}) as Json;
  return {
    inputTokens: tokenCount(usage.prompt_tokens),
    cachedInputTokens: tokenCount(prompt.cached_tokens),
    outputTokens: tokenCount(usage.completion_tokens),
    reasoningTokens: tokenCount(completion.reasoning_tokens),
  };
}

/** An error object sent inside the stream (vLLM, OpenRouter): its numeric code decides the kind. */
function streamError(error: unknown): UpstreamError {
  const text = JSON.stringify(error);
  const code = (error as Json).code;
  const status = typeof code === 'number' ? code : undefined;
  const kind = status !== undefined ? errorKindForStatus(status, text) : 'failed';
  return new UpstreamError(kind, 'the upstream reported an error inside the stream', {
    status,
    upstreamText: text,
  });
}
