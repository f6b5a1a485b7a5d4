import { ThinkingBlocks, type ChatEvent } from '@gen/contracts';
import type {
  ChatResult,
  ProtocolError,
  StreamWriter,
  TextThinkingBlock,
  TextToolCall,
} from '../canonical/text-input';
import {
  fallbackCallId,
  finalStatus,
  functionCallItem,
  functionItemId,
  messageItem,
  messageItemId,
  outputTextPart,
  reasoningItem,
  reasoningItemId,
  responseObject,
  summaryPart,
  responseUsage,
  type ResponsesEcho,
} from './response';
import { sseFrame, type Json } from '../canonical/wire';

interface TextItem {
  kind: 'message' | 'reasoning';
  outputIndex: number;
  id: string;
  text: string;
  /** Reasoning: whether its summary part was added (with the first text). */
  summaryOpen?: boolean;
}

interface CallItem {
  outputIndex: number;
  id: string;
  call: TextToolCall;
}

/**
 * Writes the Responses event stream as OpenAI sends it: `response.created`, `response.in_progress`, then per
 * output item `response.output_item.added`, its part (`response.content_part.added`, or for reasoning
 * `response.reasoning_summary_part.added`), the deltas (`response.output_text.delta`,
 * `response.reasoning_summary_text.delta`, `response.function_call_arguments.delta`), their `.done` events and
 * `response.output_item.done`, and finally `response.completed` (or `response.incomplete` when the answer was cut
 * by the token limit or the content filter) carrying the whole output and `usage`. Every frame has its `event:`
 * line and a `sequence_number` counting from 0.
 *
 * Reasoning streams as `reasoning` items whose text is one summary part (see `reasoningItem`). A signature closes
 * the item it ends, and its `output_item.done` carries the signed block as `encrypted_content` (the value a
 * client keeps, as OpenAI's SDK documents); the next reasoning opens a new item. A redacted block is an item of
 * its own with no summary. A signature with no reasoning item open gets an item of its own, with no summary; the
 * block in its token is the one `aggregate` makes, whatever the order of the events. A text or reasoning item is
 * closed when the stream moves on to another kind of output; function calls stay open until the end, so
 * fragments of several calls may interleave (each goes to its own `output_index`).
 */
export class ResponsesStreamWriter implements StreamWriter {
  private sequence = 0;
  private nextOutputIndex = 0;
  private messages = 0;
  private reasonings = 0;
  private current: TextItem | undefined;
  private readonly calls = new Map<number, CallItem>();
  private readonly output = new Map<number, Json>();
  private readonly thinking = new ThinkingBlocks();

  constructor(
    private readonly base: Pick<ChatResult, 'id' | 'model' | 'created'>,
    private readonly echo: ResponsesEcho = {},
  ) {}

  start(): string[] {
    const response = responseObject(this.base, this.echo, {});
    return [this.frame('response.created', { response }), this.frame('response.in_progress', { response })];
  }

  event(event: ChatEvent): string[] {
    this.thinking.add(event);
    switch (event.type) {
      case 'text':
      case 'reasoning':
        return event.delta === ''
          ? []
          : this.textDelta(event.type === 'text' ? 'message' : 'reasoning', event.delta);
      case 'reasoning_signature':
      case 'redacted_reasoning': {
        // The block this event closed (or the redacted block), whole.
        const block = this.thinking.blocks.at(-1)!;
        const frames: string[] = [];
        if (event.type === 'redacted_reasoning' || this.current?.kind !== 'reasoning') {
          frames.push(...this.closeCurrent('completed'), ...this.open('reasoning'));
        }
        frames.push(...this.closeCurrent('completed', block));
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
    const { status, incomplete_details } = finalStatus(result.finishReason);
    const frames: string[] = [];
    // An answer without text or call still has its (empty) message item, as the non-streamed Response has.
    if (this.messages === 0 && this.calls.size === 0) {
      frames.push(...this.closeCurrent('completed'), ...this.open('message'));
    }
    frames.push(...this.closeCurrent(status === 'completed' ? 'completed' : 'incomplete'));
    for (const item of [...this.calls.values()].sort((a, b) => a.outputIndex - b.outputIndex)) {
      frames.push(...this.closeCall(item));
    }
    this.calls.clear();
    const output = [...this.output.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
    const response = responseObject(this.base, this.echo, {
      status,
      incomplete_details,
      output,
      usage: responseUsage(result.usage),
    });
    frames.push(
      this.frame(status === 'completed' ? 'response.completed' : 'response.incomplete', { response }),
    );
    return frames;
  }

  /** A failure after the stream started: OpenAI's `error` event (code, message, param). */
  error(error: ProtocolError, message: string): string[] {
    return [this.frame('error', { code: error.code, message, param: error.param })];
  }

  private textDelta(kind: TextItem['kind'], delta: string): string[] {
    const frames: string[] = [];
    if (this.current?.kind !== kind) frames.push(...this.closeCurrent('completed'), ...this.open(kind));
    const item = this.current!;
    item.text += delta;
    if (kind === 'message') {
      frames.push(
        this.frame('response.output_text.delta', {
          ...this.route(item),
          content_index: 0,
          delta,
          logprobs: [],
        }),
      );
      return frames;
    }
    if (!item.summaryOpen) {
      item.summaryOpen = true;
      frames.push(
        this.frame('response.reasoning_summary_part.added', {
          ...this.route(item),
          summary_index: 0,
          part: summaryPart(''),
        }),
      );
    }
    frames.push(
      this.frame('response.reasoning_summary_text.delta', { ...this.route(item), summary_index: 0, delta }),
    );
    return frames;
  }

  private open(kind: TextItem['kind']): string[] {
    const id =
      kind === 'message'
        ? messageItemId(this.base.id, this.messages++)
        : reasoningItemId(this.base.id, this.reasonings++);
    const item: TextItem = { kind, outputIndex: this.nextOutputIndex++, id, text: '' };
    this.current = item;
    if (kind === 'reasoning') {
      // The summary part is added with the first text: a redacted block's item has none.
      const added = { id, type: 'reasoning', summary: [] };
      return [this.frame('response.output_item.added', { output_index: item.outputIndex, item: added })];
    }
    const added = { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] };
    return [
      this.frame('response.output_item.added', { output_index: item.outputIndex, item: added }),
      this.frame('response.content_part.added', {
        ...this.route(item),
        content_index: 0,
        part: outputTextPart(item.text),
      }),
    ];
  }

  /** Ends the open text or reasoning item; `block` is the signed block a reasoning item ends with. */
  private closeCurrent(status: string, block?: TextThinkingBlock): string[] {
    const item = this.current;
    if (!item) return [];
    this.current = undefined;
    const frames: string[] = [];
    let full: Json;
    if (item.kind === 'message') {
      full = messageItem(item.id, item.text, status);
      frames.push(
        this.frame('response.output_text.done', {
          ...this.route(item),
          content_index: 0,
          text: item.text,
          logprobs: [],
        }),
        this.frame('response.content_part.done', {
          ...this.route(item),
          content_index: 0,
          part: outputTextPart(item.text),
        }),
      );
    } else {
      full = reasoningItem(item.id, item.text, block);
      if (item.summaryOpen) {
        frames.push(
          this.frame('response.reasoning_summary_text.done', {
            ...this.route(item),
            summary_index: 0,
            text: item.text,
          }),
          this.frame('response.reasoning_summary_part.done', {
            ...this.route(item),
            summary_index: 0,
            part: summaryPart(item.text),
          }),
        );
      }
    }
    this.output.set(item.outputIndex, full);
    frames.push(this.frame('response.output_item.done', { output_index: item.outputIndex, item: full }));
    return frames;
  }

  private toolCall(event: Extract<ChatEvent, { type: 'tool_call' }>): string[] {
    const frames: string[] = [];
    let item = this.calls.get(event.index);
    if (!item) {
      frames.push(...this.closeCurrent('completed'));
      const call: TextToolCall = {
        id: event.id || fallbackCallId(this.base.id, this.calls.size),
        type: 'function',
        function: { name: event.name ?? '', arguments: '' },
      };
      item = { outputIndex: this.nextOutputIndex++, id: functionItemId(this.base.id, this.calls.size), call };
      this.calls.set(event.index, item);
      frames.push(
        this.frame('response.output_item.added', {
          output_index: item.outputIndex,
          item: functionCallItem(item.id, call, 'in_progress'),
        }),
      );
    } else if (event.name && item.call.function.name === '') {
      // A name that arrives after the first fragment still reaches the client, in the finished item.
      item.call.function.name = event.name;
    }
    if (event.argumentsDelta !== '') {
      item.call.function.arguments += event.argumentsDelta;
      frames.push(
        this.frame('response.function_call_arguments.delta', {
          item_id: item.id,
          output_index: item.outputIndex,
          delta: event.argumentsDelta,
        }),
      );
    }
    return frames;
  }

  private closeCall(item: CallItem): string[] {
    const full = functionCallItem(item.id, item.call, 'completed');
    this.output.set(item.outputIndex, full);
    return [
      this.frame('response.function_call_arguments.done', {
        item_id: item.id,
        output_index: item.outputIndex,
        name: item.call.function.name,
        arguments: item.call.function.arguments,
      }),
      this.frame('response.output_item.done', { output_index: item.outputIndex, item: full }),
    ];
  }

  private route(item: TextItem): Json {
    return { item_id: item.id, output_index: item.outputIndex };
  }

  private frame(type: string, data: Json): string {
    return sseFrame(type, { type, sequence_number: this.sequence++, ...data });
  }
}
