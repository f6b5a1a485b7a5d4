import type { HoldView, HoldsPort } from '@gen/contracts';
import { formatUsd } from '@gen/core';
import type { TaskState } from '../domain/task-state';

/**
 * Billing's step for a task that ended, taken by the tasks domain itself (a streamed text task whose terminal
 * event nothing reads; a lapsed stream lease on an ended, unsettled task): the same rule as billing's consumer
 * of the terminal events. A success is settled with its cost; a failure or expiry that cost nothing releases the
 * hold; one with a cost (a disclosed charged refusal) is settled with it. Idempotent: billing finishes a hold once.
 */
export function settleTask(
  holds: HoldsPort,
  task: { readonly id: string; readonly state: TaskState; readonly costE9: bigint | null },
): Promise<HoldView | null> {
  const cost = task.costE9 ?? 0n;
  return task.state !== 'succeeded' && cost === 0n
    ? holds.release(task.id)
    : holds.settle(task.id, formatUsd(cost));
}
