import {
  COMPAT_TASKS,
  TEXT_TASK_INTAKE,
  type CompatTasksPort,
  type TextTaskIntakePort,
} from '@gen/contracts';
import { portContract } from '../port-contract';

/**
 * Accepting a task is on a request's path and may wait for a duplicate that holds its Idempotency-Key (up to
 * 5 s, then 409) and for the hold in billing (5 s): long enough for both.
 */
export const TASK_INTAKE_TIMEOUT_MS = 15_000;
export const TASK_READ_TIMEOUT_MS = 5000;

/**
 * A stream's lease is renewed every third of TEXT_STREAM_LEASE_MS (at least a second): a renewal that waited
 * longer than that would only be overtaken by the next one.
 */
export const STREAM_LEASE_TIMEOUT_MS = 3000;

/**
 * TEXT_TASK_INTAKE (answered by the tasks app): the command (the caller's principal, the request), the stream's
 * lease and the accepted task (its task.created payload, ISO instants and USD decimal strings) are JSON-safe as
 * they are; so are the lease renewals of the streaming process (owner, task ids, milliseconds).
 */
export const TEXT_TASK_INTAKE_CONTRACT = portContract<TextTaskIntakePort>({
  token: TEXT_TASK_INTAKE,
  service: 'tasks',
  port: 'textIntake',
  methods: {
    accept: { timeoutMs: TASK_INTAKE_TIMEOUT_MS },
    renew: { timeoutMs: STREAM_LEASE_TIMEOUT_MS },
  },
});

/** COMPAT_TASKS (answered by the tasks app): `/v1/videos` tasks and their records, JSON-safe as they are. */
export const COMPAT_TASKS_CONTRACT = portContract<CompatTasksPort>({
  token: COMPAT_TASKS,
  service: 'tasks',
  port: 'compatTasks',
  methods: { create: { timeoutMs: TASK_INTAKE_TIMEOUT_MS }, get: { timeoutMs: TASK_READ_TIMEOUT_MS } },
});
