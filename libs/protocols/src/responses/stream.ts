import type { ChatEvent } from '@gen/contracts';
import type { ChatResult, ProtocolError, StreamWriter, TextToolCall } from '../canonical/text-input';
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
  responseUsage,
  type ResponsesEcho,
} from './response';
import { sseFrame, type Json } from '../canonical/wire';

interface TextItem {
  kind: 'message' | 'reasoning';
  outputIndex: number;
  id: string;
  text: string;
}

interface CallItem {
  outputIndex: number;
  id: string;
  call: TextToolCall;
}

/**
 * Writes the Responses event stream as OpenAI sends it: `response.created`, `response.in_progress`, then per
 * output item `response.output_item.added`, its content part (`response.content_part.added`), the deltas
 * (`response.output_text.delta`, `response.reasoning_text.delta`, `response.function_call_arguments.delta`),
 * their `.done` events and `response.output_item.done`, and finally `response.completed` (or
 * `response.incomplete` when the answer was cut by the token limit or the content filter) carrying the whole
 * output and `usage`. Every frame has its `event:` line and a `sequence_number` counting from 0.
 *
 * Reasoning streams as a `reasoning` item with `reasoning_text` content. A text or reasoning item is closed when
 * the stream moves on to another kind of output; function calls stay open until the end, so fragments of several
 * calls may interleave (each goes to its own `output_index`).
 */
export class ResponsesStreamWriter implements StreamWriter {
  private sequence = 0;
  private nextOutputIndex = 0;
  private messages = 0;
  private reasonings = 0;
  private current: TextItem | undefined;
  private readonly calls = new Map<number, CallItem>();
  private readonly output = new Map<number, Json>();

  constructor(
    private readonly base: Pick<ChatResult, 'id' | 'model' | 'created'>,
    private readonly echo: ResponsesEcho = {},
  ) {}

  start(): string[] {
    const response = responseObject(this.base, this.echo, {});
    return [this.frame('response.created', { response }), this.frame('response.in_progress', { response })];
  }

  event(event: ChatEvent): string[] {
    switch (event.type) {
      case 'text':
      case 'reasoning':
        return event.delta === ''
          ? []
          : this.textDelta(event.type === 'text' ? 'message' : 'reasoning', event.delta);
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
    if (this.nextOutputIndex === 0) frames.push(...this.open('message'));
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
    const type = kind === 'message' ? 'response.output_text.delta' : 'response.reasoning_text.delta';
    const extra = kind === 'message' ? { logprobs: [] } : {};
    frames.push(this.frame(type, { ...this.route(item), content_index: 0, delta, ...extra }));
    return frames;
  }

  private open(kind: TextItem['kind']): string[] {
    const id =
      kind === 'message'
        ? messageItemId(this.base.id, this.messages++)
        : reasoningItemId(this.base.id, this.reasonings++);
    const item: TextItem = { kind, outputIndex: this.nextOutputIndex++, id, text: '' };
    this.current = item;
    const added =
      kind === 'message'
        ? { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] }
        : { id, type: 'reasoning', summary: [], content: [] };
    return [
      this.frame('response.output_item.added', { output_index: item.outputIndex, item: added }),
      this.frame('response.content_part.added', {
        ...this.route(item),
        content_index: 0,
        part: this.part(item),
      }),
    ];
  }

  private closeCurrent(status: string): string[] {
    const item = this.current;
    if (!item) return [];
    this.current = undefined;
    const done =
      item.kind === 'message'
        ? this.frame('response.output_text.done', {
            ...this.route(item),
            content_index: 0,
            text: item.text,
            logprobs: [],
          })
        : this.frame('response.reasoning_text.done', {
            ...this.route(item),
            content_index: 0,
            text: item.text,
          });
    const full =
      item.kind === 'message' ? messageItem(item.id, item.text, status) : reasoningItem(item.id, item.text);
    this.output.set(item.outputIndex, full);
    return [
      done,
      this.frame('response.content_part.done', {
        ...this.route(item),
        content_index: 0,
        part: this.part(item),
      }),
      this.frame('response.output_item.done', { output_index: item.outputIndex, item: full }),
    ];
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

  private part(item: TextItem): Json {
    return item.kind === 'message' ? outputTextPart(item.text) : { type: 'reasoning_text', text: item.text };
  }

  private route(item: TextItem): Json {
    return { item_id: item.id, output_index: item.outputIndex };
  }

  private frame(type: string, data: Json): string {
    return sseFrame(type, { type, sequence_number: this.sequence++, ...data });
  }
}
