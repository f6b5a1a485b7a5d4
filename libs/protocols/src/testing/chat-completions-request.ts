import type { TextInput } from '../canonical/text-input';

/**
 * A canonical input written as a chat-completions body: the inverse of `mapChatCompletionsRequest` (tests, and
 * callers that replay a task through the protocol). The canonical input is chat-completions-shaped, so fields
 * keep their names (an assistant message's `reasoning_content` and `thinking_blocks` too, as our answers write
 * them); `max_tokens` is written as `max_completion_tokens`, the name current SDKs send.
 */
export function toChatCompletionsRequest(
  input: TextInput,
  options: { model: string; stream?: boolean; includeUsage?: boolean },
): Record<string, unknown> {
  const { max_tokens: maxTokens, ...rest } = input;
  const body: Record<string, unknown> = { model: options.model, ...structuredClone(rest) };
  if (maxTokens !== undefined) body['max_completion_tokens'] = maxTokens;
  if (options.stream) {
    body['stream'] = true;
    if (options.includeUsage) body['stream_options'] = { include_usage: true };
  }
  return body;
}
