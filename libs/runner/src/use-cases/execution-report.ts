import type { EventPayload, ExecutionCause, ExecutionEventName, TaskCreatedPayload } from '@gen/contracts';
import { newEvent, publishEvents, type EventBus } from '@gen/messaging';

/**
 * Publishes one report of a run on task.execution (started, succeeded, failed), keyed by the task: it names the
 * task.created event it answers (cause) and the request that created the task (correlation). The payload is
 * checked against the event map first; one that fails is a bug here, thrown before anything is published.
 */
export function reportExecution<T extends ExecutionEventName>(
  bus: EventBus,
  task: TaskCreatedPayload,
  cause: ExecutionCause,
  type: T,
  payload: EventPayload<T>,
  now: Date,
): Promise<void> {
  return publishEvents(bus, [
    newEvent(type, payload, {
      key: task.taskId,
      occurredAt: now,
      correlationId: cause.correlationId,
      causationId: cause.causationId,
    }),
  ]);
}
