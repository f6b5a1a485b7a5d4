import { TASK_STATES, nextState, type TaskState, type TaskTrigger } from './task-state';

const TRIGGERS: TaskTrigger[] = [
  'processing_started',
  'generation_succeeded',
  'generation_failed',
  'deadline_passed',
];

describe('the task transition table', () => {
  const table: Record<TaskState, Record<TaskTrigger, TaskState | null>> = {
    queued: {
      processing_started: 'running',
      generation_succeeded: 'succeeded',
      generation_failed: 'failed',
      deadline_passed: 'expired',
    },
    running: {
      processing_started: null,
      generation_succeeded: 'succeeded',
      generation_failed: 'failed',
      deadline_passed: 'expired',
    },
    succeeded: {
      processing_started: null,
      generation_succeeded: null,
      generation_failed: null,
      deadline_passed: null,
    },
    failed: {
      processing_started: null,
      generation_succeeded: null,
      generation_failed: null,
      deadline_passed: null,
    },
    canceled: {
      processing_started: null,
      generation_succeeded: null,
      generation_failed: null,
      deadline_passed: null,
    },
    expired: {
      processing_started: null,
      generation_succeeded: null,
      generation_failed: null,
      deadline_passed: null,
    },
  };

  for (const from of TASK_STATES) {
    for (const trigger of TRIGGERS) {
      it(`${from} + ${trigger} -> ${table[from][trigger] ?? 'ignored'}`, () => {
        expect(nextState(from, trigger)).toBe(table[from][trigger]);
      });
    }
  }

  it('never leaves a terminal state and never enters queued or canceled', () => {
    for (const from of TASK_STATES) {
      for (const trigger of TRIGGERS) {
        const to = nextState(from, trigger);
        if (to !== null) {
          expect(['queued', 'running']).toContain(from);
          expect(['queued', 'canceled']).not.toContain(to);
        }
      }
    }
  });
});
