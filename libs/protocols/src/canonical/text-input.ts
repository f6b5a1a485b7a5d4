import {
  ThinkingBlocks,
  type ChatContentPart,
  type ChatEvent,
  type FinishReason,
  type ChatMessage,
  type ChatRequest,
  type ChatThinkingBlock,
  type ChatTool,
  type ChatToolCall,
} from '@gen/contracts';

/**
 * The canonical text request: the `input` of a text task, what every compatibility protocol translates its
 * request to, and what the upstream adapters write in their own terms. One type (`ChatRequest` of
 * `@gen/contracts`), named here in the protocols' words.
 */
export type TextInput = ChatRequest;
export type TextContentPart = ChatContentPart;
export type TextToolCall = ChatToolCall;
export type TextMessage = ChatMessage;
export type TextTool = ChatTool;
export type TextThinkingBlock = ChatThinkingBlock;

/**
 * What a protocol's request mapper makes of one request: the model (from the body, or the URL for generate
 * content), the canonical input with protocol names already translated (values untouched: the field-handling
 * rules that depend on the model run afterwards), whether the client wants a stream, and the protocol fields
 * ignored by rule 4 (`user`, `metadata`, ...). `paths` names, for each canonical field present, the field of the
 * request it came from (a dot path), so that errors and headers speak the client's protocol.
 */
export interface MappedRequest {
  model: string;
  input: TextInput;
  stream: boolean;
  /** Chat completions: `stream_options.include_usage`. */
  includeUsage: boolean;
  ignored: string[];
  paths: Partial<Record<keyof TextInput, string>>;
}

/**
 * A request a protocol refuses, rendered by that protocol's error writer in its own shape. `code` is the chat-
 * style code (`unsupported_parameter`, `invalid_request`, `model_not_found`, ...), `param` the client's field as
 * a dot path (`messages.1.content.0`), `messageId` and `params` the localized text (libs/core i18n).
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  constructor(
    readonly status: number,
    readonly code: string,
    readonly messageId: string,
    readonly params: Readonly<Record<string, string | number>> = {},
    readonly param: string | null = null,
  ) {
    super(messageId);
  }
}

/** A finished answer, aggregated from the canonical events: what a non-streamed response is written from. */
export interface ChatResult {
  /** The response id's own part (`req_...` for chat completions: `chatcmpl-req_...`). */
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
  text: string;
  reasoning: string;
  /** The signed reasoning blocks (Anthropic), in order: what a client sends back on its next turn. */
  thinkingBlocks: TextThinkingBlock[];
  toolCalls: TextToolCall[];
  finishReason: FinishReason;
  usage: { inputTokens: number; cachedInputTokens: number; outputTokens: number; reasoningTokens: number };
}

/**
 * Turns canonical events into one protocol's stream, frame by frame (each string is written as is: `data: ...\n\n`
 * for SSE, or the pieces of a JSON array). `start` comes before the first event, `event` for each, `end` after the
 * last (with the final usage), `error` for a failure after the stream started.
 */
export interface StreamWriter {
  start(): string[];
  event(event: ChatEvent): string[];
  end(result: ChatResult): string[];
  error(error: ProtocolError, message: string): string[];
}

/** Aggregates canonical events into a ChatResult (tool call fragments joined by index). */
export function aggregate(
  events: Iterable<ChatEvent>,
  base: Pick<ChatResult, 'id' | 'model' | 'created'>,
): ChatResult {
  const result: ChatResult = {
    ...base,
    text: '',
    reasoning: '',
    thinkingBlocks: [],
    toolCalls: [],
    finishReason: 'stop',
    usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 },
  };
  const calls = new Map<number, TextToolCall>();
  const thinking = new ThinkingBlocks();
  for (const event of events) {
    thinking.add(event);
    switch (event.type) {
      case 'text':
        result.text += event.delta;
        break;
      case 'reasoning':
        result.reasoning += event.delta;
        break;
      case 'reasoning_signature':
      case 'redacted_reasoning':
        // Folded into `thinkingBlocks` by `thinking`, above.
        break;
      case 'tool_call': {
        let call = calls.get(event.index);
        if (!call) {
          call = {
            id: event.id ?? '',
            type: 'function',
            function: { name: event.name ?? '', arguments: '' },
          };
          calls.set(event.index, call);
        }
        if (event.id) call.id = event.id;
        if (event.name) call.function.name = event.name;
        call.function.arguments += event.argumentsDelta;
        break;
      }
      case 'usage': {
        const { type: _type, ...usage } = event;
        result.usage = usage;
        break;
      }
      case 'finish':
        result.finishReason = event.reason;
        break;
    }
  }
  result.thinkingBlocks = thinking.blocks;
  result.toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  return result;
}
