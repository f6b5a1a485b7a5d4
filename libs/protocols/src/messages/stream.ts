import type { ChatEvent } from '@gen/contracts';
import type { ChatResult, ProtocolError, StreamWriter } from '../canonical/text-input';
import { writeMessagesError } from './error';
import { fallbackToolUseId, messageId, messageUsage, STOP_REASONS } from './response';
import { sseFrame, type Json } from '../canonical/wire';

type TextKind = 'text' | 'thinking';

/**
 * Writes the Messages event stream as Anthropic sends it: `message_start` (the empty message; input usage is not
 * known yet and reads 0), a `ping`, then per content block `content_block_start`, its deltas (`text_delta`,
 * `thinking_delta`, `signature_delta`, `input_json_delta`) and `content_block_stop`, then `message_delta` with
 * the stop reason and the whole usage (input, cache reads and output, which the SDK takes over the message_start
 * values) and `message_stop`. Every frame has its `event:` line.
 *
 * Reasoning is a `thinking` block (started with empty `thinking` and `signature`, as Anthropic starts it) whose
 * `thinking_delta`s carry the text; a signature closes it with a `signature_delta` (a signature with no thinking
 * block open gets a block of its own, with empty text); a redacted block is a `redacted_thinking` block started
 * whole and stopped. A thinking block nothing signs ends with an empty signature (see `reasoningBlocks`). A text
 * or thinking block is closed when the stream moves on to another kind of output; tool_use blocks stay open until
 * the end, so fragments of several calls may interleave (each goes to its own block index). An answer without
 * text or tool call ends with an empty text block, as the non-streamed Message has one.
 */
export class MessagesStreamWriter implements StreamWriter {
  private nextIndex = 0;
  private current: { kind: TextKind; index: number } | undefined;
  private wroteText = false;
  private readonly tools = new Map<number, number>();

  constructor(private readonly base: Pick<ChatResult, 'id' | 'model' | 'created'>) {}

  start(): string[] {
    const message = {
      id: messageId(this.base.id),
      type: 'message',
      role: 'assistant',
      model: this.base.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    };
    return [this.frame('message_start', { message }), this.frame('ping', {})];
  }

  event(event: ChatEvent): string[] {
    switch (event.type) {
      case 'text':
        return event.delta === '' ? [] : this.textDelta('text', { type: 'text_delta', text: event.delta });
      case 'reasoning':
        return event.delta === ''
          ? []
          : this.textDelta('thinking', { type: 'thinking_delta', thinking: event.delta });
      case 'reasoning_signature':
        return [
          ...this.textDelta('thinking', { type: 'signature_delta', signature: event.signature }),
          ...this.closeCurrent(),
        ];
      case 'redacted_reasoning': {
        const frames = this.closeCurrent();
        const index = this.nextIndex++;
        const block = { type: 'redacted_thinking', data: event.data };
        frames.push(
          this.frame('content_block_start', { index, content_block: block }),
          this.frame('content_block_stop', { index }),
        );
        return frames;
      }
      case 'tool_call':
        return this.toolCall(event);
      default:
        // usage and finish are written by `end`, from the aggregated result.
        return [];
    }
  }

  end(result: ChatResult): string[] {
    const frames: string[] = [...this.closeCurrent()];
    if (!this.wroteText && this.tools.size === 0) frames.push(...this.open('text'), ...this.closeCurrent());
    for (const index of [...this.tools.values()].sort((a, b) => a - b)) {
      frames.push(this.frame('content_block_stop', { index }));
    }
    this.tools.clear();
    frames.push(
      this.frame('message_delta', {
        delta: { stop_reason: STOP_REASONS[result.finishReason], stop_sequence: null },
        usage: messageUsage(result.usage),
      }),
      this.frame('message_stop', {}),
    );
    return frames;
  }

  /** A failure after the stream started: Anthropic's `event: error` with the error body. */
  error(error: ProtocolError, message: string): string[] {
    return [sseFrame('error', writeMessagesError(error, message))];
  }

  private textDelta(kind: TextKind, delta: Json): string[] {
    const frames = this.current?.kind === kind ? [] : [...this.closeCurrent(), ...this.open(kind)];
    frames.push(this.frame('content_block_delta', { index: this.current!.index, delta }));
    return frames;
  }

  private open(kind: TextKind): string[] {
    const index = this.nextIndex++;
    if (kind === 'text') this.wroteText = true;
    this.current = { kind, index };
    const block =
      kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
    return [this.frame('content_block_start', { index, content_block: block })];
  }

  private closeCurrent(): string[] {
    if (!this.current) return [];
    const { index } = this.current;
    this.current = undefined;
    return [this.frame('content_block_stop', { index })];
  }

  private toolCall(event: Extract<ChatEvent, { type: 'tool_call' }>): string[] {
    const frames: string[] = [];
    let index = this.tools.get(event.index);
    if (index === undefined) {
      frames.push(...this.closeCurrent());
      index = this.nextIndex++;
      const block = {
        type: 'tool_use',
        id: event.id || fallbackToolUseId(this.base.id, this.tools.size),
        name: event.name ?? '',
        input: {},
      };
      this.tools.set(event.index, index);
      frames.push(this.frame('content_block_start', { index, content_block: block }));
    }
    if (event.argumentsDelta !== '') {
      frames.push(
        this.frame('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: event.argumentsDelta },
        }),
      );
    }
    return frames;
  }

  private frame(type: string, data: Json): string {
    return sseFrame(type, { type, ...data });
  }
}
