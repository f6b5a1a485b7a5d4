/**
 * The canonical chat shape, one request in and one stream of events out, from the four compatibility protocols
 * and the native API to the upstream adapters and back. The request is the `input` of a text task (validated
 * against the model's `inputSchema`, built by the catalog's `chatInputSchema`) with the canonical parameter
 * names of the spec's mapping table; the protocols translate their wire formats to it, an adapter writes it in
 * one upstream's own terms. There is no second, narrower request type: what a model accepts reaches the adapter.
 */

export interface ChatToolCall {
  id: string;
  type: 'function';
  /** The arguments as JSON text, as the model wrote them. */
  function: { name: string; arguments: string };
}

/**
 * An image part's `url`: a `data:` URL of a supported image type, an `https` URL (port 443, no user info), or the
 * caller's own committed `service://files/...` image (see `checkChatImageUrl`).
 */
export type ChatContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } };

/**
 * A block of a model's reasoning that must go back to the upstream unchanged on the next turn of a conversation
 * (Anthropic's extended thinking: the text with its signature, or a redacted block's opaque data).
 */
export type ChatThinkingBlock =
  { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: string | ChatContentPart[] | null;
  name?: string;
  /** Tool messages: the call answered. */
  tool_call_id?: string;
  /** Assistant messages: the calls the model made. */
  tool_calls?: ChatToolCall[];
  /** Assistant messages: the reasoning text a previous answer carried (informational; not sent upstream). */
  reasoning_content?: string;
  /** Assistant messages: the signed reasoning blocks of a previous answer, sent back to an upstream that wants them. */
  thinking_blocks?: ChatThinkingBlock[];
}

export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export type ChatToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

/** `json_schema`'s `json_schema` is OpenAI's object: `name`, `schema`, optional `description` and `strict`. */
export interface ChatResponseFormat {
  type: 'text' | 'json_object' | 'json_schema';
  json_schema?: Record<string, unknown>;
}

/** The canonical chat request (field names: the spec's canonical parameters). */
export interface ChatRequest {
  messages: ChatMessage[];
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  min_p?: number;
  top_a?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  repetition_penalty?: number;
  stop?: string | string[];
  /** A reasoning level of the model's (`none`, `low`, ...). */
  reasoning_effort?: string;
  tools?: ChatTool[];
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: ChatResponseFormat;
}

/** The sampling fields of the canonical request (the spec's field handling, rule 1). */
export const CHAT_SAMPLING_FIELDS = [
  'temperature',
  'top_p',
  'top_k',
  'min_p',
  'top_a',
  'frequency_penalty',
  'presence_penalty',
  'repetition_penalty',
] as const satisfies readonly (keyof ChatRequest)[];

/** An image's bytes, read for an upstream that cannot take its URL. */
export interface ChatImage {
  readonly bytes: Buffer;
  /** The canonical type found from the bytes (`image/png`, ...). */
  readonly contentType: string;
}

/**
 * Reads the image of a `service://` URI or an `https` URL (through the SSRF guard, with the limits of uploads)
 * for one call: bound to the task's account by whoever runs it. Rejects with a MediaInputError.
 */
export type ChatImageReader = (url: string, signal: AbortSignal) => Promise<ChatImage>;

/** What a chat call needs besides the request: how to read the images an adapter must send as bytes. */
export interface ChatCallOptions {
  readonly readImage?: ChatImageReader;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** Token counts, integers. `inputTokens` includes `cachedInputTokens`; `outputTokens` includes `reasoningTokens`. */
export interface ChatUsage {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
}

/**
 * One event of a chat stream. A complete stream ends with `usage` (when reported) and then `finish`.
 * Reasoning comes as `reasoning` deltas; an upstream that signs its reasoning (Anthropic) closes each block of it
 * with `reasoning_signature`, and sends a block it redacted whole as `redacted_reasoning`. The blocks, in order,
 * are what a client sends back as the assistant message's `thinking_blocks` (see `ThinkingBlocks`).
 */
export type ChatEvent =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  | { type: 'reasoning_signature'; signature: string }
  | { type: 'redacted_reasoning'; data: string }
  | { type: 'tool_call'; index: number; id?: string; name?: string; argumentsDelta: string }
  | ({ type: 'usage' } & ChatUsage)
  | { type: 'finish'; reason: FinishReason };

/**
 * Folds reasoning events into signed blocks: the reasoning text since the previous block, closed by its
 * signature; a redacted block as it came. Reasoning text that no signature closes is not a block (an upstream
 * that does not sign reasoning makes none).
 */
export class ThinkingBlocks {
  readonly blocks: ChatThinkingBlock[] = [];
  private pending = '';

  add(event: ChatEvent): void {
    if (event.type === 'reasoning') this.pending += event.delta;
    else if (event.type === 'reasoning_signature') {
      this.blocks.push({ type: 'thinking', thinking: this.pending, signature: event.signature });
      this.pending = '';
    } else if (event.type === 'redacted_reasoning') {
      this.blocks.push({ type: 'redacted_thinking', data: event.data });
    }
  }
}
