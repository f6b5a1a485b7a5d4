import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { withinBudget } from './query-budget';

describe('withinBudget', () => {
  it('returns a read that finishes in time', async () => {
    await expect(withinBudget(Promise.resolve(7), 50)).resolves.toBe(7);
  });

  it('answers 503 (query.timeout) for a read past its budget', async () => {
    const slow = new Promise((resolve) => setTimeout(resolve, 200, 'late'));
    const error = await withinBudget(slow, 20).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(BusinessCode.Unavailable);
    expect((error as DomainError).messageId).toBe('query.timeout');
  });

  it('passes a failing read on as it is', async () => {
    await expect(withinBudget(Promise.reject(new Error('boom')), 50)).rejects.toThrow('boom');
  });
});
