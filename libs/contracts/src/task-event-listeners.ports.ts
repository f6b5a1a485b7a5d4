import type { TaskEventType } from './task-events';

/** The name of a terminal task event: task.succeeded, task.failed, task.expired. */
export type TaskTerminalEventName = Exclude<
  (typeof TaskEventType)[keyof typeof TaskEventType],
  'task.created'
>;

/**
 * Whether anything outside the tasks and billing domains listens to an account's terminal task events: its
 * account-level webhook endpoints (implemented by the webhooks domain, answered from memory, never a query per
 * event). A task's own `callBackUrl` the tasks domain knows itself. Where no implementation is in the process
 * (a fleet's tasks app: the endpoints are the webhooks app's), every terminal event is written.
 */
export interface TaskEventListenersPort {
  listens(accountId: string, type: TaskTerminalEventName): Promise<boolean>;
}
export const TASK_EVENT_LISTENERS = Symbol('TaskEventListeners');
