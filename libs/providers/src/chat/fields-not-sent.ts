import type { ChatRequest } from '@gen/contracts';

/**
 * The canonical request fields an upstream's wire format has no name for, by adapter (the catalog binding's
 * `provider.adapter`): an adapter does not send them, and the compatibility field rules list them in
 * `X-Service-Ignored-Params` when a request carries one (docs/text.md has the table of each upstream). An
 * OpenAI-compatible server takes every canonical field under its own name; the offline model reads what it uses.
 */
export const CHAT_FIELDS_NOT_SENT: Readonly<Record<string, readonly (keyof ChatRequest)[]>> = {
  anthropic: [
    'min_p',
    'top_a',
    'frequency_penalty',
    'presence_penalty',
    'repetition_penalty',
    'response_format',
  ],
  gemini: ['min_p', 'top_a', 'repetition_penalty', 'parallel_tool_calls'],
};

/** The fields some binding of a model cannot send (the union over its adapters, in canonical order). */
export function chatFieldsNotSent(adapters: readonly string[]): (keyof ChatRequest)[] {
  const fields = new Set<keyof ChatRequest>();
  for (const adapter of adapters) for (const field of CHAT_FIELDS_NOT_SENT[adapter] ?? []) fields.add(field);
  return [...fields];
}
