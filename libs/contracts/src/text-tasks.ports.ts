import type { ApiKeyPrincipal } from './auth.ports';
import type { ChatEvent } from './chat';
import type { TaskCreatedPayload } from './task-events';

/** What a report names: the task.created event (cause) and the request that created the task (correlation). */
export interface ExecutionCause {
  readonly causationId: string;
  readonly correlationId: string;
}

/**
 * Runs a text task where the request is (implemented by the runner): reports it started, yields the model's
 * canonical events as they come, and reports the answer and its usage (or the failure) on task.execution, so the
 * tasks service settles it like any task. A failure surfaces as a `ProviderFailure` through the iteration after
 * it was reported. The caller should read the iteration to its end even when its client went away (a disconnect
 * stops reception only): the task then finishes and is settled by the work performed.
 */
export interface ChatExecutionPort {
  /**
   * `early`, when given for the same model, is the model call `start` opened while the task was being accepted:
   * the run reads it instead of calling the model again. `signal` stops the run without a report (a runner
   * giving its task back); `stream` is the control of a run streamed to a client (see StreamRunControl).
   */
  run(
    task: TaskCreatedPayload,
    cause: ExecutionCause,
    signal: AbortSignal,
    early?: EarlyChat,
    stream?: StreamRunControl,
  ): AsyncIterable<ChatEvent>;
  /**
   * Calls the model before the task exists, so that its first token and the acceptance (hold, task row) are
   * awaited side by side rather than one after the other. Nothing is reported and nothing is charged for it: the
   * caller passes it to `run` once the task is accepted, or aborts it when acceptance refuses.
   */
  start(model: string, input: Record<string, unknown>): EarlyChat;
}

/**
 * How the process that streams a text answer ends it when it stops (SIGTERM), and learns that it was reported.
 * `cut` aborting ends the answer where it is, at once, whether or not the reader is reading: with something
 * delivered it is reported succeeded, charged by the usage seen so far (the model's own count if it gave one,
 * else one output token per piece delivered), and the iteration ends with a `usage` and a `finish` (`length`)
 * event, so the client's stream ends as a complete one does; with nothing delivered it is reported failed
 * (`service_interrupted`, uncharged) and the iteration throws that ProviderFailure. `reported` is called once
 * the run's final report (succeeded or failed) is through.
 */
export interface StreamRunControl {
  readonly cut: AbortSignal;
  reported?(): void;
}

/** A model call opened by `ChatExecutionPort.start`, not yet read. */
export interface EarlyChat {
  /** The exact catalog id it calls. */
  readonly model: string;
  /** Ends the call (the acceptance refused, or replayed an earlier request). Idempotent. */
  abort(): void;
}
export const CHAT_EXECUTION = Symbol('ChatExecution');

export interface OpenTextTaskCommand {
  readonly principal: ApiKeyPrincipal;
  /** A text model id or alias. */
  readonly model: string;
  /** The canonical text input (validated against the model's inputSchema here). */
  readonly input: Record<string, unknown>;
  readonly idempotencyKey?: string;
  readonly retention?: string;
  /** Native stream only: a quote confirmed with it. */
  readonly quoteId?: string;
  readonly expectedCost?: string;
  /** Native stream only: the terminal-state callback target. */
  readonly callBackUrl?: unknown;
  readonly requestId: string;
}

/** A text task accepted for a stream: its hold is reserved and it runs as `events` is read. */
export interface OpenedTextTask {
  readonly taskId: string;
  /** The exact catalog id. */
  readonly model: string;
  readonly estimatedCost: string;
  /**
   * The model's events. Null when the Idempotency-Key replayed an earlier request: that stream cannot be sent
   * again (and nothing is charged twice); its task is read with recordInfo.
   */
  readonly events: AsyncIterable<ChatEvent> | null;
}

/**
 * Opens text tasks for the streaming endpoints (implemented by the tasks domain): the same validation, quote,
 * Idempotency-Key and hold as createTask; the task is then run inline through CHAT_EXECUTION.
 */
export interface TextTasksPort {
  open(command: OpenTextTaskCommand): Promise<OpenedTextTask>;
}
export const TEXT_TASKS = Symbol('TextTasks');

/** A text task accepted for a stream: what the process that runs it, where the client is, needs. */
export interface AcceptedTextTask {
  readonly taskId: string;
  /** The exact catalog id. */
  readonly model: string;
  readonly estimatedCost: string;
  /** The task.created event's payload and its cause, to run it with; null when the Idempotency-Key replayed. */
  readonly run: { readonly payload: TaskCreatedPayload; readonly cause: ExecutionCause } | null;
}

/**
 * The lease of a text task streamed to a client: the process that streams it (`owner`, unique per process)
 * holds it for `leaseMs` from acceptance and renews it while it streams; the task's end (its report applied)
 * deletes it. A lease that lapses (its process died) ends the task: failed, `service_interrupted`, hold
 * released, its Idempotency-Key free again.
 */
export interface StreamLease {
  readonly owner: string;
  readonly leaseMs: number;
}

/**
 * Accepting a text task for a stream (implemented by the tasks domain): createTask's validation, quote,
 * Idempotency-Key and hold, for text models only, the task row and its `task.created` (inline). The stream
 * itself runs in the caller's process (TEXT_TASKS), which may be another app than the one that owns the tasks;
 * that process holds the task's lease (`lease`, written with the task) and renews it while it streams.
 */
export interface TextTaskIntakePort {
  accept(command: OpenTextTaskCommand, lease?: StreamLease): Promise<AcceptedTextTask>;
  /** Extends `owner`'s leases of `taskIds` by `leaseMs` from now; returns the task ids it still holds. */
  renew(owner: string, taskIds: readonly string[], leaseMs: number): Promise<string[]>;
}
export const TEXT_TASK_INTAKE = Symbol('TextTaskIntake');

/** A task as the compatibility layer shows it (the `/v1/videos` objects): the record's fields it needs. */
export interface TaskView {
  readonly taskId: string;
  readonly model: string;
  readonly state: string;
  readonly input?: Record<string, unknown>;
  readonly output?: {
    readonly assets: readonly { readonly key: string; readonly mime: string; readonly url?: string }[];
  };
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly createdAt: string;
  readonly completedAt?: string;
}

/**
 * Tasks for the compatibility endpoints that are not text (implemented by the tasks domain): createTask's
 * checks and hold, and the record of a task of the calling key (404 for any other).
 */
export interface CompatTasksPort {
  create(command: Omit<OpenTextTaskCommand, 'quoteId' | 'expectedCost' | 'callBackUrl'>): Promise<TaskView>;
  get(principal: ApiKeyPrincipal, taskId: string, language: string): Promise<TaskView>;
}
export const COMPAT_TASKS = Symbol('CompatTasks');
