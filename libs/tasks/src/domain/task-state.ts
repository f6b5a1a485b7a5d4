/** Task states (spec: States and transitions). `canceled` exists only in historical records. */
export const TASK_STATES = ['queued', 'running', 'succeeded', 'failed', 'canceled', 'expired'] as const;
export type TaskState = (typeof TASK_STATES)[number];

export const IN_FLIGHT_STATES: readonly TaskState[] = ['queued', 'running'];
export const RETRYABLE_STATES: readonly TaskState[] = ['failed', 'expired', 'canceled'];

export const isTerminal = (state: TaskState): boolean => !IN_FLIGHT_STATES.includes(state);

/** What can happen to an accepted task. */
export type TaskTrigger =
  'processing_started' | 'generation_succeeded' | 'generation_failed' | 'deadline_passed';

/**
 * The transition table. Returns the next state, or null when the news is ignored: a terminal task ignores
 * everything (it is applied once), and a running task ignores a second start.
 *
 * | from     | processing_started | generation_succeeded | generation_failed | deadline_passed |
 * | queued   | running            | succeeded            | failed            | expired         |
 * | running  | (ignored)          | succeeded            | failed            | expired         |
 * | terminal | (ignored)          | (ignored)            | (ignored)         | (ignored)       |
 */
export function nextState(from: TaskState, trigger: TaskTrigger): TaskState | null {
  if (isTerminal(from)) return null;
  switch (trigger) {
    case 'processing_started':
      return from === 'queued' ? 'running' : null;
    case 'generation_succeeded':
      return 'succeeded';
    case 'generation_failed':
      return 'failed';
    case 'deadline_passed':
      return 'expired';
  }
}
