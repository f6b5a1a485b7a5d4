import type { TaskRow } from '../persistence/task-row';

/** When the task's outputs and prompt stop being kept: retention counts from completion. */
export function retainedUntil(task: TaskRow): Date | null {
  return task.completedAt ? new Date(task.completedAt.getTime() + task.retentionSeconds * 1000) : null;
}

/**
 * Whether the task's outputs and prompt are gone at `now`: purged, or past retention (the record shows the
 * task purged at once, before the sweeper deletes the files).
 */
export function isPurgedAt(task: TaskRow, now: Date): boolean {
  const until = retainedUntil(task);
  return task.purgedAt !== null || (until !== null && until.getTime() <= now.getTime());
}
