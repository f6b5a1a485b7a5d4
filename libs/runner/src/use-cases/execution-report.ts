import { IdPrefix, type EventEnvelope, type ExecutionCause, type TaskCreatedPayload } from '@gen/contracts';
import { newId } from '@gen/core';

/**
 * One report of a run on task.execution (started, succeeded, failed), keyed by the task: it names the
 * task.created event it answers (cause) and the request that created the task (correlation).
 */
export function executionReport(
  task: TaskCreatedPayload,
  cause: ExecutionCause,
  type: string,
  payload: unknown,
  now: Date,
): EventEnvelope {
  return {
    id: newId(IdPrefix.event),
    type,
    version: 1,
    key: task.taskId,
    occurredAt: now.toISOString(),
    correlationId: cause.correlationId,
    causationId: cause.causationId,
    payload,
  };
}
