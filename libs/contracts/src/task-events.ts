/**
 * Topics and payloads of the task flow. NEVER rename a topic or an event type: they are the wire between
 * services (Kafka topics in distributed mode) and consumers of older versions may still be running.
 */
export const Topics = {
  /** Owned by tasks; keyed by task id. created, succeeded, failed, expired. */
  taskLifecycle: 'task.lifecycle',
  /** Owned by the runner; keyed by task id. started, succeeded, failed. */
  taskExecution: 'task.execution',
  /** Owned by billing; keyed by hold id (= task id). settled, released. */
  billingHolds: 'billing.holds',
} as const;

export const TaskEventType = {
  created: 'task.created',
  succeeded: 'task.succeeded',
  failed: 'task.failed',
  expired: 'task.expired',
} as const;

export const ExecutionEventType = {
  started: 'execution.started',
  succeeded: 'execution.succeeded',
  failed: 'execution.failed',
} as const;

export const HoldEventType = {
  settled: 'hold.settled',
  released: 'hold.released',
} as const;

/** `task.created` v1: everything the runner needs to execute the task. */
export interface TaskCreatedPayload {
  readonly taskId: string;
  readonly accountId: string;
  readonly keyId: string;
  readonly model: string;
  readonly input: Record<string, unknown>;
  /** USD decimal: the hold. */
  readonly estimatedCost: string;
  readonly createdAt: string;
  readonly deadlineAt: string;
  /**
   * Run by the request that created it (a text stream: `/api/v1/jobs/stream`, the compatibility endpoints), in
   * that process: the runner leaves it. If that process dies, the task expires at its deadline, hold released.
   */
  readonly inline?: boolean;
}

/** `task.succeeded` / `task.failed` / `task.expired` v1: the charge billing applies. */
export interface TaskTerminalPayload {
  readonly taskId: string;
  readonly accountId: string;
  readonly keyId: string;
  readonly model: string;
  readonly state: 'succeeded' | 'failed' | 'expired';
  /** USD decimal: what to charge ("0" releases the hold). Never above the estimate. */
  readonly charge: string;
  readonly errorCode?: string;
  readonly completedAt: string;
  /** The normalized callback URL of the task, when it has one. */
  readonly callbackUrl?: string;
  /**
   * The task record as recordInfo shows it, taken at the terminal transition, without what must be made
   * when it is sent: no signed `url` or `expiresAt` on assets, and no `errorMessage` (it follows the account's
   * language). Deliveries add those.
   */
  readonly record?: Record<string, unknown>;
}

/**
 * Where the runner stores a task's outputs: every output key starts with this prefix, and nothing else is
 * stored under it (committed media files live under `files/`). Purge deletes, and download tickets sign, only
 * keys under it, so neither can reach a file of the account, such as one the asset library keeps.
 */
export function taskOutputPrefix(taskId: string): string {
  return `outputs/${taskId}/`;
}

/** Whether `key` is one of the task's own output objects (see taskOutputPrefix). */
export function isTaskOutputKey(taskId: string, key: string): boolean {
  const prefix = taskOutputPrefix(taskId);
  return key.length > prefix.length && key.startsWith(prefix) && !key.slice(prefix.length).includes('/');
}

/** One stored (or not stored) result file, as the runner reports it. */
export interface ExecutionAsset {
  readonly key: string;
  readonly mime: string;
  readonly bytes?: number;
  readonly width?: number;
  readonly height?: number;
  readonly durationSeconds?: number;
  /** ready: stored, signed URL on read; pending: stored, no URL yet; unavailable: not stored. */
  readonly status: 'ready' | 'pending' | 'unavailable';
}

/** Billable quantities: `images` (perImage), `pixels` (perMegapixel), `milliseconds` (perSecond), tokens. */
export interface ExecutionUsage {
  readonly images?: number;
  readonly pixels?: number;
  readonly milliseconds?: number;
  readonly inputTokens?: number;
  readonly cachedInputTokens?: number;
  readonly outputTokens?: number;
  /** Part of `outputTokens` (shown in the record, not priced apart). */
  readonly reasoningTokens?: number;
}

/** The answer of a text task, as the runner reports it (the record shows it under `output`). */
export interface ExecutionText {
  readonly content: string;
  /** Reasoning text the model showed, when it did. */
  readonly reasoning?: string;
  readonly toolCalls?: readonly { readonly id: string; readonly name: string; readonly arguments: string }[];
  readonly finishReason: 'stop' | 'length' | 'tool_calls' | 'content_filter';
}

export interface ExecutionStartedPayload {
  readonly taskId: string;
  readonly startedAt: string;
}

export interface ExecutionSucceededPayload {
  readonly taskId: string;
  readonly assets: readonly ExecutionAsset[];
  /** Text tasks: the answer (their `assets` are empty). */
  readonly text?: ExecutionText;
  readonly usage: ExecutionUsage;
  readonly finishedAt: string;
  /** When the run began, if no `started` report was sent for it (a text answer that ended quickly). */
  readonly startedAt?: string;
}

export interface ExecutionFailedPayload {
  readonly taskId: string;
  readonly errorCode: string;
  readonly finishedAt: string;
  /** When the run began, if no `started` report was sent for it (a text answer that ended quickly). */
  readonly startedAt?: string;
}

/** `hold.settled` / `hold.released` v1. */
export interface HoldFinalPayload {
  readonly holdId: string;
  readonly accountId: string;
  /** USD decimal; "0" for a release. */
  readonly charged: string;
}
