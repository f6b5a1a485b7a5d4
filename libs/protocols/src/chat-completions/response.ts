import type { ChatResult, TextThinkingBlock, TextToolCall } from '../canonical/text-input';

/** The `usage` object of a completion and of the last stream chunk. */
export interface ChatCompletionsUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

/** The `chat.completion` object of a non-streamed request (spec: chat-completions response rule 1). */
export interface ChatCompletionBody {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: [
    {
      index: 0;
      message: {
        role: 'assistant';
        content: string | null;
        reasoning_content?: string;
        /** LiteLLM's field: the signed reasoning blocks, sent back as they are on the next turn. */
        thinking_blocks?: TextThinkingBlock[];
        tool_calls?: TextToolCall[];
        refusal: null;
      };
      finish_reason: ChatResult['finishReason'];
    },
  ];
  usage: ChatCompletionsUsage;
}

/** `chatcmpl-req_...`: the same `req_...` as the `x-request-id` header (spec: common rule 6). */
export const chatCompletionId = (id: string): string => `chatcmpl-${id}`;

/**
 * The id of a tool call whose upstream gave none (Gemini may not): stable per response and index, so the non-
 * streamed body and the stream name the same call, and unique enough for the client's `tool_call_id` round trip.
 */
export const fallbackToolCallId = (id: string, index: number): string => `call_${id}_${index}`;

/** Canonical usage to OpenAI's: reasoning is already inside `completion_tokens`, cached inside `prompt_tokens`. */
export function chatCompletionsUsage(usage: ChatResult['usage']): ChatCompletionsUsage {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}

/**
 * The non-streamed body. `content` is null when the answer has no text (as OpenAI sends a tool-call answer; the
 * stream writer opens such an answer with `content: null` too, so both assemble to the same message);
 * `reasoning_content` appears only when there was reasoning text (all of it, signed or not), `thinking_blocks`
 * only when the upstream signed its reasoning (LiteLLM's convention: `{type: 'thinking', thinking, signature}` and
 * `{type: 'redacted_thinking', data}`, in order; a client sends them back on the assistant message of its next
 * turn); `refusal: null` is kept because the SDK's message type has it; no `system_fingerprint` and no
 * `logprobs` (spec).
 */
export function writeChatCompletionsResponse(result: ChatResult): ChatCompletionBody {
  const message: ChatCompletionBody['choices'][0]['message'] = {
    role: 'assistant',
    content: result.text === '' ? null : result.text,
    refusal: null,
  };
  if (result.reasoning !== '') message.reasoning_content = result.reasoning;
  if (result.thinkingBlocks.length > 0)
    message.thinking_blocks = result.thinkingBlocks.map((b) => ({ ...b }));
  if (result.toolCalls.length > 0) {
    message.tool_calls = result.toolCalls.map((call, index) => ({
      id: call.id === '' ? fallbackToolCallId(result.id, index) : call.id,
      type: 'function',
      function: { name: call.function.name, arguments: call.function.arguments },
    }));
  }
  return {
    id: chatCompletionId(result.id),
    object: 'chat.completion',
    created: result.created,
    model: result.model,
    choices: [{ index: 0, message, finish_reason: result.finishReason }],
    usage: chatCompletionsUsage(result.usage),
  };
}
