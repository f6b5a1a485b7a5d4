import { tokenCount, type ChatEvent, type FinishReason } from './chat-adapter';
import type { SseFrame } from './sse';
import { UpstreamError } from './upstream-error';
import { cutShort, parseFrameJson, type FrameDecoder } from './upstream-stream';

type Json = Record<string, unknown>;

const FINISH: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/** Error types sent in an `error` event that are worth another attempt. */
const RETRYABLE_ERRORS = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error']);

/**
 * Decodes Anthropic message stream events: message_start (input usage), content_block_start (tool_use opens a
 * tool call, redacted_thinking comes whole), content_block_delta (text_delta, input_json_delta, thinking_delta,
 * signature_delta: the end of a thinking block), message_delta (stop_reason,
 * output usage), message_stop (the end marker), error. Tool calls are numbered 0, 1, ... in block order.
 */
export class AnthropicMessagesDecoder implements FrameDecoder {
  private readonly toolIndex = new Map<number, number>();
  private input = 0;
  private cached = 0;
  private output = 0;
  private finish: FinishReason = 'stop';
  private done = false;

  decode(frame: SseFrame): ChatEvent[] {
    if (this.done || frame.event === 'ping') return [];
    const data = parseFrameJson(frame);
    const type = typeof data.type === 'string' ? data.type : frame.event;
    switch (type) {
      case 'message_start':
        this.countUsage(((data.message ?? {}) as Json).usage as Json | undefined);
        return [];
      case 'content_block_start':
        return this.blockStart(data);
      case 'content_block_delta':
        return this.blockDelta(data);
      case 'message_delta': {
        const stop = ((data.delta ?? {}) as Json).stop_reason;
        if (typeof stop === 'string') this.finish = FINISH[stop] ?? 'stop';
        this.countUsage(data.usage as Json | undefined);
        return [];
      }
      case 'message_stop':
        this.done = true;
        return [
          {
            type: 'usage',
            inputTokens: this.input,
            cachedInputTokens: this.cached,
            outputTokens: this.output,
            reasoningTokens: 0,
          },
          { type: 'finish', reason: this.finish },
        ];
      case 'error':
        throw streamError(data);
      default:
        return [];
    }
  }

  end(): ChatEvent[] {
    if (!this.done) throw cutShort();
    return [];
  }

  private blockStart(data: Json): ChatEvent[] {
    const block = (data.content_block ?? {}) as Json;
    if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') {
      return [{ type: 'text', delta: block.text }];
    }
    if (block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking !== '') {
      return [{ type: 'reasoning', delta: block.thinking }];
    }
    if (block.type === 'redacted_thinking' && typeof block.data === 'string') {
      return [{ type: 'redacted_reasoning', data: block.data }];
    }
    if (block.type !== 'tool_use') return [];
    const index = this.toolIndex.size;
    this.toolIndex.set(Number(data.index), index);
    const event: ChatEvent = { type: 'tool_call', index, argumentsDelta: '' };
    if (typeof block.id === 'string') event.id = block.id;
    if (typeof block.name === 'string') event.name = block.name;
    return [event];
  }

  private blockDelta(data: Json): ChatEvent[] {
    const delta = (data.delta ?? {}) as Json;
    if (delta.type === 'text_delta' && typeof delta.text === 'string')
      return [{ type: 'text', delta: delta.text }];
    if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') {
      return [{ type: 'reasoning', delta: delta.thinking }];
    }
    if (delta.type === 'signature_delta' && typeof delta.signature === 'string') {
      return [{ type: 'reasoning_signature', signature: delta.signature }];
    }
    const index = this.toolIndex.get(Number(data.index));
    if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string' && index !== undefined) {
      return [{ type: 'tool_call', index, argumentsDelta: delta.partial_json }];
    }
    return [];
  }

  /** Input counts all prompt tokens (uncached, cache reads and cache writes); output_tokens is cumulative. */
  private countUsage(usage: Json | undefined): void {
    if (!usage) return;
    if ('input_tokens' in usage) {
      this.cached = tokenCount(usage.cache_read_input_tokens);
      this.input =
        tokenCount(usage.input_tokens) + this.cached + tokenCount(usage.cache_creation_input_tokens);
    }
    if ('output_tokens' in usage) this.output = tokenCount(usage.output_tokens);
  }
}

function streamError(data: Json): UpstreamError {
  const error = (data.error ?? {}) as Json;
  const kind = RETRYABLE_ERRORS.has(String(error.type)) ? 'retryable' : 'failed';
  return new UpstreamError(kind, 'the upstream reported an error inside the stream', {
    upstreamText: JSON.stringify(data),
  });
}
