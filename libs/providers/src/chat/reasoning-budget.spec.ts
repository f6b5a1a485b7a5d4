import { THINKING_MIN_BUDGET, thinkingBudget } from './reasoning-budget';

describe('thinkingBudget: a reasoning level as a share of max_tokens', () => {
  it.each([
    ['minimal', 8000, 1024],
    ['low', 8000, 2000],
    ['medium', 8000, 4000],
    ['high', 8000, 6000],
    ['xhigh', 8000, 7000],
    ['max', 8000, 7999],
    ['low', 2048, 1024],
    ['max', 1025, 1024],
  ])('%s with max_tokens %i is %i', (level, maxTokens, budget) => {
    expect(thinkingBudget(level, maxTokens)).toBe(budget);
  });

  it('none, an unknown level, or no room above the minimum budget: no thinking', () => {
    expect(thinkingBudget('none', 8000)).toBeUndefined();
    expect(thinkingBudget('extreme', 8000)).toBeUndefined();
    expect(thinkingBudget('high', THINKING_MIN_BUDGET)).toBeUndefined();
  });

  it('is always at least the minimum and below max_tokens (Anthropic’s rule)', () => {
    for (const level of ['minimal', 'low', 'medium', 'high', 'xhigh', 'max']) {
      for (let maxTokens = 1025; maxTokens < 70_000; maxTokens += 997) {
        const budget = thinkingBudget(level, maxTokens)!;
        expect(budget).toBeGreaterThanOrEqual(THINKING_MIN_BUDGET);
        expect(budget).toBeLessThan(maxTokens);
      }
    }
  });
});
