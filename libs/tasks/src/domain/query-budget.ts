import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';

/** Spec, Limits: the task list and usage have a five-second server budget, then 503. */
export const QUERY_BUDGET_MS = 5000;

/** Runs a read within the budget; past it the caller gets 503 (the read's result, if any, is dropped). */
export async function withinBudget<T>(work: Promise<T>, budgetMs = QUERY_BUDGET_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DomainError(BusinessCode.Unavailable, 'query.timeout')), budgetMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
