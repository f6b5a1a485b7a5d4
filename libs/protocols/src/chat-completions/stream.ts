import { ThinkingBlocks, type ChatEvent } from '@gen/contracts';
import type { ChatResult, ProtocolError, StreamWriter } from '../canonical/text-input';
import { writeChatCompletionsError } from './error';
import { chatCompletionId, chatCompletionsUsage, fallbackToolCallId } from './response';

/** What every chunk repeats: the response's own id part (`req_...`), the model and the Unix-seconds creation. */
export interface ChatCompletionsStreamBase {
  id: string;
  model: string;
  created: number;
}

type Delta = Record<string, unknown>;

/**
 * The `chat.completion.chunk` stream (spec: chat-completions response rule 2), as OpenAI sends it:
 * - the first chunk carries `delta.role: "assistant"`. It is written with the first event, not by `start`, because
 *   OpenAI's differs by answer: `content: ""` alone before text, `content: null` together with the first tool call
 *   fragment (or reasoning delta) otherwise, so that the SDK's assembled message has the `content` of the
 *   non-streamed body (null when the answer has no text);
 * - text goes in `delta.content`, reasoning in `delta.reasoning_content`;
 * - a signed reasoning block goes whole, once, in `delta.thinking_blocks` (a list of that one block) when its
 *   signature arrives, and a redacted block when it arrives: collected across chunks in order, they are the
 *   `thinking_blocks` of the non-streamed body. (LiteLLM repeats each thinking delta in `thinking_blocks` and
 *   sends the signature as a block of empty text; its stream builder joins those pieces, and joins a whole block
 *   the same way, while a client that simply collects the entries gets the right blocks only from whole ones.
 *   The text is in `reasoning_content` already, so each block is written once, complete);
 * - tool calls go in `delta.tool_calls` fragments by index: the first fragment of an index carries `id`, `type`
 *   and `function.name`, later ones only `function.arguments`, in the order the events come (the upstreams send
 *   one call after the other, which the SDK's per-call `done` events assume; fragments that interleave are still
 *   assembled right by index);
 * - exactly one chunk carries `finish_reason` (the first `finish` event, or the result's at the end);
 * - with `includeUsage`, every chunk has `usage: null` and one more chunk with `choices: []` and the final usage
 *   comes just before `data: [DONE]`; without it no chunk has a `usage` key;
 * - a failure after the start is one `data:` chunk with an `error` object, then the stream ends (no `[DONE]`):
 *   the SDK raises it as an `APIError`.
 */
export class ChatCompletionsStreamWriter implements StreamWriter {
  private readonly id: string;
  private readonly started = new Set<number>();
  private readonly thinking = new ThinkingBlocks();
  private opened = false;
  private finished = false;

  constructor(
    private readonly base: ChatCompletionsStreamBase,
    private readonly options: { includeUsage: boolean },
  ) {
    this.id = chatCompletionId(base.id);
  }

  /** Nothing: the role chunk goes with the first event (see above). */
  start(): string[] {
    return [];
  }

  event(event: ChatEvent): string[] {
    if (this.finished) return [];
    this.thinking.add(event);
    switch (event.type) {
      case 'text':
        return event.delta === '' ? [] : [...this.open(), this.chunk({ content: event.delta })];
      case 'reasoning':
        return event.delta === '' ? [] : [this.chunkOpening({ reasoning_content: event.delta })];
      case 'reasoning_signature':
      case 'redacted_reasoning':
        // The block the event closed (or the redacted block itself), whole.
        return [this.chunkOpening({ thinking_blocks: [{ ...this.thinking.blocks.at(-1)! }] })];
      case 'tool_call':
        return [this.chunkOpening({ tool_calls: [this.toolCallFragment(event)] })];
      case 'usage':
        // The final usage is written by `end`, from the aggregated result.
        return [];
      case 'finish':
        this.finished = true;
        return [...this.openEmpty(), this.chunk({}, event.reason)];
    }
  }

  end(result: ChatResult): string[] {
    const frames: string[] = [];
    if (!this.finished) {
      this.finished = true;
      frames.push(...this.openEmpty(), this.chunk({}, result.finishReason));
    }
    if (this.options.includeUsage) {
      frames.push(this.frame({ choices: [], usage: chatCompletionsUsage(result.usage) }));
    }
    frames.push('data: [DONE]\n\n');
    return frames;
  }

  /**
   * The comment line written while the model thinks (spec: chat-completions response rule 3). SSE parsers skip
   * it; not part of `StreamWriter`, the server decides when to send it.
   */
  keepAlive(): string[] {
    return [': keep-alive\n\n'];
  }

  error(error: ProtocolError, message: string): string[] {
    return [`data: ${JSON.stringify(writeChatCompletionsError(error, message))}\n\n`];
  }

  /**
   * A reasoning, thinking block or tool call delta; the first one of the stream also carries the role and `content: null`, so that
   * an answer without text assembles to `content: null` (the SDK keeps the first content it sees).
   */
  private chunkOpening(delta: Delta): string {
    if (this.opened) return this.chunk(delta);
    this.opened = true;
    return this.chunk({ role: 'assistant', content: null, ...delta });
  }

  /** The role chunk with `content: ""`, once, before the first text (as OpenAI opens a text answer). */
  private open(): string[] {
    if (this.opened) return [];
    this.opened = true;
    return [this.chunk({ role: 'assistant', content: '' })];
  }

  /** The role chunk of an answer that finishes with nothing at all: `content: null`, as its body has. */
  private openEmpty(): string[] {
    if (this.opened) return [];
    this.opened = true;
    return [this.chunk({ role: 'assistant', content: null })];
  }

  private toolCallFragment(event: Extract<ChatEvent, { type: 'tool_call' }>): Delta {
    if (this.started.has(event.index)) {
      return { index: event.index, function: { arguments: event.argumentsDelta } };
    }
    this.started.add(event.index);
    return {
      index: event.index,
      id: event.id ?? fallbackToolCallId(this.base.id, event.index),
      type: 'function',
      function: { name: event.name ?? '', arguments: event.argumentsDelta },
    };
  }

  private chunk(delta: Delta, finishReason: string | null = null): string {
    return this.frame({ choices: [{ index: 0, delta, finish_reason: finishReason }] });
  }

  private frame(fields: { choices: unknown[]; usage?: unknown }): string {
    const chunk: Record<string, unknown> = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.base.created,
      model: this.base.model,
      choices: fields.choices,
    };
    if (this.options.includeUsage) chunk['usage'] = fields.usage ?? null;
    return `data: ${JSON.stringify(chunk)}\n\n`;
  }
}
