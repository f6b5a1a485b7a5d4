import { ThinkingBlocks, type ChatEvent } from '@gen/contracts';
import type { ChatResult, ProtocolError, StreamWriter } from '../canonical/text-input';
import { writeGenerateContentError } from './error';
import type { Json } from './fields';
import {
  finishReasonOf,
  functionCallPart,
  signaturePart,
  usageMetadataOf,
  type GenerateContentResponse,
  type GenerateContentWriteOptions,
} from './response';

/** The response's identity, known before the first event: every chunk repeats it, as Gemini's chunks do. */
export type GenerateContentStreamBase = Pick<ChatResult, 'id' | 'model'>;

/**
 * The chunks of streamGenerateContent, each a GenerateContentResponse: one per text (or, when asked for, thought)
 * delta; one per signed reasoning block when its signature (or the redacted block) arrives, holding its signature
 * part (see `signaturePart`), thoughts asked for or not; the function calls, whole with parsed arguments, then
 * `finishReason` and `usageMetadata` in the last chunk (Gemini has no end marker: the last chunk is the one with
 * a finishReason). A failure after the start is one chunk carrying Google's `error` object. Subclasses only frame
 * the chunks.
 */
abstract class GenerateContentChunks implements StreamWriter {
  abstract readonly contentType: string;
  private readonly thinking = new ThinkingBlocks();

  constructor(
    private readonly base: GenerateContentStreamBase,
    private readonly options: GenerateContentWriteOptions = {},
  ) {}

  start(): string[] {
    return [];
  }

  event(event: ChatEvent): string[] {
    this.thinking.add(event);
    switch (event.type) {
      case 'text':
        return event.delta ? [this.frame(this.chunk([{ text: event.delta }]))] : [];
      case 'reasoning':
        return event.delta && this.options.includeThoughts
          ? [this.frame(this.chunk([{ text: event.delta, thought: true }]))]
          : [];
      case 'reasoning_signature':
      case 'redacted_reasoning':
        // The block this event closed (or the redacted block), whole.
        return [this.frame(this.chunk([signaturePart(this.thinking.blocks.at(-1)!)]))];
      case 'tool_call':
      case 'usage':
      case 'finish':
        return [];
    }
  }

  end(result: ChatResult): string[] {
    const last = this.chunk(result.toolCalls.map(functionCallPart));
    last.candidates[0]!.finishReason = finishReasonOf(result.finishReason);
    last.usageMetadata = usageMetadataOf(result.usage);
    return [this.frame(last)];
  }

  error(error: ProtocolError, message: string): string[] {
    return [this.frame(writeGenerateContentError(error, message))];
  }

  protected abstract frame(chunk: object): string;

  private chunk(parts: Json[]): GenerateContentResponse {
    return {
      candidates: [{ content: { parts, role: 'model' }, index: 0 }],
      modelVersion: this.base.model,
      responseId: this.base.id,
    };
  }
}

/** `:streamGenerateContent?alt=sse`: `data: {chunk}` events, no `[DONE]`. */
export class GenerateContentSseWriter extends GenerateContentChunks {
  readonly contentType = 'text/event-stream';

  protected frame(chunk: object): string {
    return `data: ${JSON.stringify(chunk)}\n\n`;
  }
}

/**
 * `:streamGenerateContent` without `alt=sse`: one JSON array written as it grows (`[`, the chunks separated by
 * commas, `]`), so that the whole body is valid JSON once closed, even after an error chunk.
 */
export class GenerateContentArrayWriter extends GenerateContentChunks {
  readonly contentType = 'application/json';
  private written = 0;

  override start(): string[] {
    return ['['];
  }

  override end(result: ChatResult): string[] {
    return [...super.end(result), ']'];
  }

  override error(error: ProtocolError, message: string): string[] {
    return [...super.error(error, message), ']'];
  }

  protected frame(chunk: object): string {
    return (this.written++ === 0 ? '' : ',\r\n') + JSON.stringify(chunk);
  }
}

/** The writer the URL asks for: `alt=sse` gives SSE, no `alt` (or `alt=json`) the JSON array. */
export function generateContentStreamWriter(
  alt: string | undefined,
  base: GenerateContentStreamBase,
  options: GenerateContentWriteOptions = {},
): GenerateContentSseWriter | GenerateContentArrayWriter {
  return alt === 'sse'
    ? new GenerateContentSseWriter(base, options)
    : new GenerateContentArrayWriter(base, options);
}
