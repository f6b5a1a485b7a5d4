import { type PrivateCidrAllowList } from '@gen/ssrf';

/** Settings of the tasks domain, from the configuration (TasksModule builds them). */
export interface TasksOptions {
  /** TASK_DEADLINE_SECONDS. */
  readonly deadlineSeconds: number;
  /** Signs quote ids (QUOTE_SIGNING_KEY or DATA_DIR/quote.key). */
  readonly quoteKey: Buffer;
  /** WEBHOOK_ALLOW_PRIVATE_CIDRS, parsed. */
  readonly allowPrivateCidrs: PrivateCidrAllowList;
  /** TEXT_STREAM_LEASE_MS: the lease of a text task streamed to a client. */
  readonly streamLeaseMs: number;
}
export const TASKS_OPTIONS = Symbol('TasksOptions');

/** Spec, Limits: results and prompts are kept 14 days unless X-Service-Retention shortens it. */
export const DEFAULT_RETENTION_SECONDS = 14 * 24 * 3600;
/** Spec, Limits: the idempotency window of createTask. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
/** A reserve waits for its task this long before billing's sweeper gives the money back. */
export const SIGNED_URL_SECONDS = 3600;
