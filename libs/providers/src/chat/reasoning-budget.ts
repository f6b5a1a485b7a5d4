/**
 * How a canonical `reasoning_effort` level becomes a token budget for upstreams that think within a budget
 * (Anthropic's extended thinking, Gemini's `thinkingBudget`). Reasoning tokens are output tokens, so the budget is
 * a share of the request's `max_tokens` (which the hold covers): the answer can never cost more than was held.
 * `minimal` is the smallest budget the upstreams take; `max` all but one token. See docs/text.md.
 */
export const THINKING_MIN_BUDGET = 1024;

const SHARE: Readonly<Record<string, number>> = {
  minimal: 0,
  low: 0.25,
  medium: 0.5,
  high: 0.75,
  xhigh: 0.875,
  max: 1,
};

/**
 * The thinking budget of a level for an answer of at most `maxTokens`: at least THINKING_MIN_BUDGET and less
 * than `maxTokens` (Anthropic's rule). Undefined for `none`, an unknown level, or a `maxTokens` too small to think
 * in (THINKING_MIN_BUDGET or less): the request is then sent without thinking.
 */
export function thinkingBudget(level: string, maxTokens: number): number | undefined {
  const share = SHARE[level];
  if (share === undefined || maxTokens - 1 < THINKING_MIN_BUDGET) return undefined;
  const budget = Math.max(THINKING_MIN_BUDGET, Math.floor(maxTokens * share));
  return Math.min(budget, maxTokens - 1);
}
