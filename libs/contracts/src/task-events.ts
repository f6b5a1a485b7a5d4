import { Type, type Static } from '@sinclair/typebox';

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

/** The event types of task.lifecycle, task.execution and billing.holds. */
export type TaskEventName = (typeof TaskEventType)[keyof typeof TaskEventType];
export type ExecutionEventName = (typeof ExecutionEventType)[keyof typeof ExecutionEventType];
export type HoldEventName = (typeof HoldEventType)[keyof typeof HoldEventType];

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

/** An id of ours (`job_...`, `acc_...`, `key_...`): never empty. */
const Id = Type.String({ minLength: 1 });
/** A USD decimal as the money code writes it (`formatUsd`, billing's `trim_scale`): no sign, at most 9 decimals. */
const Usd = Type.String({ pattern: '^(0|[1-9]\\d*)(\\.\\d{1,9})?$' });
/** An ISO 8601 instant (`Date.toISOString()`). */
const Instant = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$',
});
const Count = Type.Number({ minimum: 0 });
/**
 * A JSON object whose fields are not the event's (a task's input, its record): checked as an object only. A
 * Record schema would also visit every key, which made it 90% of a task.created check (1.2 of 1.3 µs).
 */
const Json = Type.Unsafe<Record<string, unknown>>(Type.Object({}));

/*
 * Payload schemas (TypeBox). Objects accept properties they do not name: a field added within a version is
 * ignored by consumers that do not know it yet; removing or changing a field is a new version (event-map.ts).
 * The TypeScript types are derived from them (`Static`), so the check and the type cannot drift apart.
 */

/** `task.created` v1: everything the runner needs to execute the task. */
export const TaskCreatedPayloadSchema = Type.Readonly(
  Type.Object({
    taskId: Id,
    accountId: Id,
    keyId: Id,
    model: Type.String({ minLength: 1 }),
    input: Json,
    /** USD decimal: the hold. */
    estimatedCost: Usd,
    createdAt: Instant,
    deadlineAt: Instant,
    /**
     * Run by the request that created it (a text stream: `/api/v1/jobs/stream`, the compatibility endpoints), in
     * that process: the runner leaves it. That process holds the task's stream lease (tasks.stream_leases); if it
     * dies, the task fails (`service_interrupted`, hold released) once the lease lapses.
     */
    inline: Type.Optional(Type.Boolean()),
  }),
);
export type TaskCreatedPayload = Static<typeof TaskCreatedPayloadSchema>;

/** `task.succeeded` / `task.failed` / `task.expired` v1: the charge billing applies. */
export const TaskTerminalPayloadSchema = Type.Readonly(
  Type.Object({
    taskId: Id,
    accountId: Id,
    keyId: Id,
    model: Type.String({ minLength: 1 }),
    state: Type.Union([Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('expired')]),
    /** USD decimal: what to charge ("0" releases the hold). Never above the estimate. */
    charge: Usd,
    errorCode: Type.Optional(Type.String({ minLength: 1 })),
    completedAt: Instant,
    /** The normalized callback URL of the task, when it has one. */
    callbackUrl: Type.Optional(Type.String({ minLength: 1 })),
    /**
     * The task record as recordInfo shows it, taken at the terminal transition, without what must be made
     * when it is sent: no signed `url` or `expiresAt` on assets, and no `errorMessage` (it follows the account's
     * language). Deliveries add those.
     */
    record: Type.Optional(Json),
  }),
);
export type TaskTerminalPayload = Static<typeof TaskTerminalPayloadSchema>;

/** One stored (or not stored) result file, as the runner reports it. */
export const ExecutionAssetSchema = Type.Readonly(
  Type.Object({
    key: Type.String({ minLength: 1 }),
    mime: Type.String({ minLength: 1 }),
    bytes: Type.Optional(Count),
    width: Type.Optional(Count),
    height: Type.Optional(Count),
    durationSeconds: Type.Optional(Count),
    /** ready: stored, signed URL on read; pending: stored, no URL yet; unavailable: not stored. */
    status: Type.Union([Type.Literal('ready'), Type.Literal('pending'), Type.Literal('unavailable')]),
  }),
);
export type ExecutionAsset = Static<typeof ExecutionAssetSchema>;

/** Billable quantities: `images` (perImage), `pixels` (perMegapixel), `milliseconds` (perSecond), tokens. */
export const ExecutionUsageSchema = Type.Readonly(
  Type.Object({
    images: Type.Optional(Count),
    pixels: Type.Optional(Count),
    milliseconds: Type.Optional(Count),
    inputTokens: Type.Optional(Count),
    cachedInputTokens: Type.Optional(Count),
    outputTokens: Type.Optional(Count),
    /** Part of `outputTokens` (shown in the record, not priced apart). */
    reasoningTokens: Type.Optional(Count),
  }),
);
export type ExecutionUsage = Static<typeof ExecutionUsageSchema>;

/** The answer of a text task, as the runner reports it (the record shows it under `output`). */
export const ExecutionTextSchema = Type.Readonly(
  Type.Object({
    content: Type.String(),
    /** Reasoning text the model showed, when it did. */
    reasoning: Type.Optional(Type.String()),
    /** Signed reasoning blocks (Anthropic), to be sent back unchanged on the next turn of a conversation. */
    thinkingBlocks: Type.Optional(
      Type.Array(
        Type.Union([
          Type.Readonly(
            Type.Object({
              type: Type.Literal('thinking'),
              thinking: Type.String(),
              signature: Type.String(),
            }),
          ),
          Type.Readonly(Type.Object({ type: Type.Literal('redacted_thinking'), data: Type.String() })),
        ]),
      ),
    ),
    toolCalls: Type.Optional(
      Type.Array(
        Type.Readonly(Type.Object({ id: Type.String(), name: Type.String(), arguments: Type.String() })),
      ),
    ),
    finishReason: Type.Union([
      Type.Literal('stop'),
      Type.Literal('length'),
      Type.Literal('tool_calls'),
      Type.Literal('content_filter'),
    ]),
  }),
);
export type ExecutionText = Static<typeof ExecutionTextSchema>;

/** `execution.started` v1. */
export const ExecutionStartedPayloadSchema = Type.Readonly(Type.Object({ taskId: Id, startedAt: Instant }));
export type ExecutionStartedPayload = Static<typeof ExecutionStartedPayloadSchema>;

/** `execution.succeeded` v1. */
export const ExecutionSucceededPayloadSchema = Type.Readonly(
  Type.Object({
    taskId: Id,
    assets: Type.Array(ExecutionAssetSchema),
    /** Text tasks: the answer (their `assets` are empty). */
    text: Type.Optional(ExecutionTextSchema),
    usage: ExecutionUsageSchema,
    finishedAt: Instant,
    /** When the run began, if no `started` report was sent for it (a text answer that ended quickly). */
    startedAt: Type.Optional(Instant),
  }),
);
export type ExecutionSucceededPayload = Static<typeof ExecutionSucceededPayloadSchema>;

/** `execution.failed` v1. */
export const ExecutionFailedPayloadSchema = Type.Readonly(
  Type.Object({
    taskId: Id,
    errorCode: Type.String({ minLength: 1 }),
    finishedAt: Instant,
    /** When the run began, if no `started` report was sent for it (a text answer that ended quickly). */
    startedAt: Type.Optional(Instant),
  }),
);
export type ExecutionFailedPayload = Static<typeof ExecutionFailedPayloadSchema>;

/** `hold.settled` / `hold.released` v1 (written by billing's SQL, see HoldsRepository.finish). */
export const HoldFinalPayloadSchema = Type.Readonly(
  Type.Object({
    holdId: Id,
    accountId: Id,
    /** USD decimal; "0" for a release. */
    charged: Usd,
  }),
);
export type HoldFinalPayload = Static<typeof HoldFinalPayloadSchema>;
