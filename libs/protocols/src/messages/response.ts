import { unsignedReasoning } from '../canonical/reasoning';
import type { ChatResult } from '../canonical/text-input';
import type { Json } from '../canonical/wire';

/** The canonical finish reasons as Anthropic's stop reasons (a stop sequence is reported as end_turn). */
export const STOP_REASONS: Record<ChatResult['finishReason'], string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

export const messageId = (id: string): string => `msg_${id}`;
/** The id of a tool call the model did not name (the canonical event may omit it). */
export const fallbackToolUseId = (id: string, index: number): string => `toolu_${id}_${index}`;

/**
 * Anthropic's usage: `input_tokens` counts only the uncached prompt tokens and `cache_read_input_tokens` the
 * cached ones (canonical input includes them); cache writes are not tracked canonically and report 0.
 */
export function messageUsage(usage: ChatResult['usage']): Json {
  return {
    input_tokens: Math.max(0, usage.inputTokens - usage.cachedInputTokens),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: usage.cachedInputTokens,
    output_tokens: usage.outputTokens,
  };
}

/** The `input` object of a tool_use block: the arguments parsed; anything but a JSON object becomes `{}`. */
export function toolInput(args: string): Json {
  try {
    const parsed: unknown = JSON.parse(args === '' ? '{}' : args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Json) : {};
  } catch {
    return {};
  }
}

/**
 * The reasoning blocks of an answer, in the order the upstream sent them: each signed block as Anthropic wrote it
 * (`thinking` with its text and signature, `redacted_thinking` with its data), then the reasoning no signature
 * closed, if any, as one `thinking` block with an empty signature.
 *
 * That last block is a choice. Reasoning from an upstream that does not sign it (an OpenAI-compatible or Gemini
 * model) is still reasoning, and a Messages client shows thinking blocks as such, so it is written as one rather
 * than dropped or mixed into the text. Its empty signature says it cannot be verified: Anthropic would refuse
 * it, so when a client sends it back the mapper keeps its text as the turn's `reasoning_content` only, never as
 * a block to send upstream (the conversation may go on with a Claude model). The SDK's types accept it
 * (`signature` is a string).
 */
export function reasoningBlocks(result: Pick<ChatResult, 'reasoning' | 'thinkingBlocks'>): Json[] {
  const blocks: Json[] = result.thinkingBlocks.map((block) => ({ ...block }));
  const unsigned = unsignedReasoning(result);
  if (unsigned !== '') blocks.push({ type: 'thinking', thinking: unsigned, signature: '' });
  return blocks;
}

/**
 * The non-streamed Message of a finished answer: the reasoning blocks (see `reasoningBlocks`), the text block
 * (kept empty when there is no tool call, for clients that read a text block), then one tool_use block per call
 * with its input parsed.
 */
export function writeMessagesResponse(result: ChatResult): Json {
  const content: Json[] = reasoningBlocks(result);
  if (result.text !== '' || result.toolCalls.length === 0) content.push({ type: 'text', text: result.text });
  result.toolCalls.forEach((call, index) => {
    content.push({
      type: 'tool_use',
      id: call.id === '' ? fallbackToolUseId(result.id, index) : call.id,
      name: call.function.name,
      input: toolInput(call.function.arguments),
    });
  });
  return {
    id: messageId(result.id),
    type: 'message',
    role: 'assistant',
    model: result.model,
    content,
    stop_reason: STOP_REASONS[result.finishReason],
    stop_sequence: null,
    usage: messageUsage(result.usage),
  };
}
