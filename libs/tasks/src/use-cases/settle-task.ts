import { endReleasesHold, type FinishHoldOptions, type HoldView, type HoldsPort } from '@gen/contracts';
import { formatUsd } from '@gen/core';
import type { TaskState } from '../domain/task-state';

/**
 * Billing's step for a task that ended, taken by the tasks domain itself (a streamed text task whose terminal
 * event nothing reads; a lapsed stream lease on an ended, unsettled task), by the rule billing's consumer of the
 * terminal events follows (`endReleasesHold`). Idempotent: billing finishes a hold once. `quiet`: the caller
 * records the outcome itself (FinishHoldOptions).
 */
export function settleTask(
  holds: HoldsPort,
  task: { readonly id: string; readonly state: TaskState; readonly costE9: bigint | null },
  options: FinishHoldOptions = {},
): Promise<HoldView | null> {
  const cost = task.costE9 ?? 0n;
  return endReleasesHold(task.state === 'succeeded', cost)
    ? holds.release(task.id, options)
    : holds.settle(task.id, formatUsd(cost), options);
}
