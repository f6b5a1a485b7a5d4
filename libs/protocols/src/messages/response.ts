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
 * The non-streamed Message of a finished answer: a thinking block when the model reasoned (with an empty
 * signature: there is none to verify), the text block (kept empty when there is nothing else, for clients that
 * read the first text block), then one tool_use block per call with its input parsed.
 */
export function writeMessagesResponse(result: ChatResult): Json {
  const content: Json[] = [];
  if (result.reasoning !== '') content.push({ type: 'thinking', thinking: result.reasoning, signature: '' });
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
