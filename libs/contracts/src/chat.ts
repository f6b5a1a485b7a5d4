/**
 * The canonical chat shape every chat adapter speaks: one request in, one stream of events out. The compatibility
 * layer translates its wire formats to and from these; an adapter translates them to one upstream's wire format.
 */

export interface ChatToolCall {
  id: string;
  name: string;
  /** The arguments as JSON text, as the model wrote them. */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content?: string | null; toolCalls?: ChatToolCall[] }
  | { role: 'tool'; toolCallId: string; name?: string; content: string };

export interface ChatTool {
  name: string;
  description?: string;
  /** A JSON Schema object describing the arguments. */
  parameters: Record<string, unknown>;
}

export type ChatToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ChatTool[];
  toolChoice?: ChatToolChoice;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stop?: string[];
  /** A reasoning level of the model's (`none`, `low`, ...), when the request asks for one. */
  reasoningEffort?: string;
  /** Whether the caller wants a stream; adapters always stream from the upstream, the caller may aggregate. */
  stream: boolean;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** Token counts, integers. `inputTokens` includes `cachedInputTokens`; `outputTokens` includes `reasoningTokens`. */
export interface ChatUsage {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
}

/** One event of a chat stream. A complete stream ends with `usage` (when reported) and then `finish`. */
export type ChatEvent =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  | { type: 'tool_call'; index: number; id?: string; name?: string; argumentsDelta: string }
  | ({ type: 'usage' } & ChatUsage)
  | { type: 'finish'; reason: FinishReason };
