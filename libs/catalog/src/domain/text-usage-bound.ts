import type { ExecutionUsage } from '@gen/contracts';

/** Tokens held for each image part of a message: more than any provider charges for one image. */
export const IMAGE_PART_TOKENS = 1_600;
/** Tokens held for each message's framing (role, separators), and once for the reply's priming. */
export const MESSAGE_OVERHEAD_TOKENS = 8;
export const PRIMING_TOKENS = 16;

const bytes = (value: unknown): number =>
  typeof value === 'string'
    ? Buffer.byteLength(value, 'utf8')
    : Buffer.byteLength(JSON.stringify(value ?? ''), 'utf8');

/**
 * The hold of a text request (spec, Limits: "messages plus the full max_tokens"): every input token is at least
 * one byte of UTF-8 in the tokenizers of the providers served here, so the bytes of the messages' text, tool calls,
 * thinking blocks and tool definitions, plus a framing allowance per message and a fixed allowance per image, bound the input
 * tokens; the output is `max_tokens` (the model default applied by validation). Priced as uncached input.
 */
export function textUsageBound(input: Readonly<Record<string, unknown>>): ExecutionUsage {
  let inputTokens = PRIMING_TOKENS;
  for (const message of input['messages'] as Record<string, unknown>[]) {
    inputTokens += MESSAGE_OVERHEAD_TOKENS;
    const content = message['content'];
    if (typeof content === 'string') inputTokens += bytes(content);
    else if (Array.isArray(content)) {
      for (const part of content as Record<string, unknown>[]) {
        inputTokens += part['type'] === 'image_url' ? IMAGE_PART_TOKENS : bytes(part['text']);
      }
    }
    for (const field of ['name', 'tool_call_id'] as const) {
      if (message[field] !== undefined) inputTokens += bytes(message[field]);
    }
    if (message['tool_calls'] !== undefined) inputTokens += bytes(message['tool_calls']);
    // Sent back to an upstream that wants them (Anthropic counts them as input). `reasoning_content` is not sent.
    if (message['thinking_blocks'] !== undefined) inputTokens += bytes(message['thinking_blocks']);
  }
  if (input['tools'] !== undefined) inputTokens += bytes(input['tools']);
  if (input['response_format'] !== undefined) inputTokens += bytes(input['response_format']);
  return { inputTokens, outputTokens: input['max_tokens'] as number };
}
