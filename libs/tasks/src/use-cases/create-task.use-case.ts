import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  BusinessCode,
  HOLDS_PORT,
  IdPrefix,
  TaskEventType,
  type ApiKeyPrincipal,
  type HoldsPort,
  type TypedEvent,
} from '@gen/contracts';
import { CLOCK, DomainError, LOGGER, newId, parseUsd, type Clock, type Logger } from '@gen/core';
import { newEvent, type OutgoingEvent } from '@gen/messaging';
import {
  DEFAULT_RETENTION_SECONDS,
  IDEMPOTENCY_WINDOW_MS,
  TASKS_OPTIONS,
  type TasksOptions,
} from '../domain/task-options';
import type { TaskRow } from '../persistence/task-row';
import { TaskRepository, type StreamLease } from '../persistence/task.repository';
import { PrepareTaskRequest, type PreparedRequest, type TaskRequest } from '../domain/prepare-task-request';
import { checkQuote } from './quote-task.use-case';

export interface CreateTaskCommand {
  readonly principal: ApiKeyPrincipal;
  readonly request: TaskRequest;
  /** The Idempotency-Key header, if sent. */
  readonly idempotencyKey?: string;
  /** The X-Service-Retention header, if sent. */
  readonly retention?: string;
  /** The X-Request-Id of this call; task summaries show it. */
  readonly requestId: string;
  /** Set by retry: the source task. The Idempotency-Key is then scoped to it and the retry action. */
  readonly sourceTaskId?: string;
  /**
   * A text stream: only text models are accepted (503 otherwise, the spec's "stream endpoint used for a
   * non-text model"), and the task runs in the caller's process (`inline`), not in the runner queue.
   */
  readonly stream?: boolean;
  /** A stream: the lease of the process that streams it, written with the task (see StreamLease). */
  readonly lease?: StreamLease;
}

/** What a created task's task.created event carries; the stream endpoints run it with it. */
export type CreatedTask = TypedEvent<typeof TaskEventType.created>;

export interface AcceptedTask {
  readonly task: TaskRow;
  /** The task.created event written with it; absent on a replay. */
  readonly created?: CreatedTask;
  /** True when an earlier call with the same Idempotency-Key created it. */
  readonly replayed: boolean;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
/** How long a duplicate waits for the call that holds its Idempotency-Key before answering 409. */
const IN_PROGRESS_WAIT_MS = 5000;
const IN_PROGRESS_POLL_MS = 20;

export function parseRetention(header: string | undefined): number {
  if (header === undefined) return DEFAULT_RETENTION_SECONDS;
  if (!/^\d{1,12}$/.test(header.trim()) || Number(header) <= 0) {
    throw new DomainError(BusinessCode.InvalidRequest, 'retention.invalid');
  }
  return Math.min(Number(header), DEFAULT_RETENTION_SECONDS);
}

/**
 * POST /api/v1/jobs/createTask. The order is what makes a refusal leave nothing behind:
 * check the request (400 / 404 / 503), claim the Idempotency-Key (a replay returns the original task before
 * anything else is checked), check the quote (40901), hold the funds (40201 / 40202), then write the task
 * and its `task.created` event in one transaction. A step that fails undoes the ones before it.
 */
@Injectable()
export class CreateTaskUseCase {
  constructor(
    private readonly requests: PrepareTaskRequest,
    private readonly tasks: TaskRepository,
    @Inject(HOLDS_PORT) private readonly holds: HoldsPort,
    @Inject(TASKS_OPTIONS) private readonly options: TasksOptions,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null = null,
  ) {}

  async execute(command: CreateTaskCommand): Promise<AcceptedTask> {
    const { principal } = command;
    if (command.idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(command.idempotencyKey)) {
      throw new DomainError(BusinessCode.InvalidRequest, 'idempotency.invalid_key');
    }
    const retentionSeconds = parseRetention(command.retention);
    const prepared = await this.requests.prepare(principal, command.request);
    if (command.stream === true && prepared.modality !== 'text') {
      throw new DomainError(BusinessCode.Unavailable, 'stream.not_text', { model: prepared.model });
    }
    let taskId = newId(IdPrefix.task);
    let adopted = false;
    if (command.idempotencyKey !== undefined) {
      const claimed = await this.claim(
        principal,
        scopeOf(command),
        command.idempotencyKey,
        prepared.requestHash,
        taskId,
      );
      if (claimed?.replay) return { task: claimed.replay, replayed: true };
      if (claimed?.adopt) {
        taskId = claimed.adopt;
        adopted = true;
      }
    }
    try {
      return await this.accept(command, prepared, taskId, retentionSeconds, adopted);
    } catch (error) {
      // An adopted key and task id may still be its first holder's, alive after all: neither is given back.
      if (command.idempotencyKey !== undefined && !adopted) {
        await this.tasks.releaseIdempotencyKey(
          principal.accountId,
          scopeOf(command),
          command.idempotencyKey,
          taskId,
        );
      }
      throw error;
    }
  }

  private async accept(
    command: CreateTaskCommand,
    prepared: PreparedRequest,
    taskId: string,
    retentionSeconds: number,
    adopted: boolean,
  ): Promise<AcceptedTask> {
    const { principal } = command;
    const now = this.clock.now();
    checkQuote(command.request, prepared, principal, this.options.quoteKey, now);
    await this.holds.reserve({
      holdId: taskId,
      accountId: principal.accountId,
      keyId: principal.keyId,
      model: prepared.model,
      amount: prepared.estimate,
      dailyCap: principal.dailySpendCap,
    });
    const task: TaskRow = {
      id: taskId,
      accountId: principal.accountId,
      keyId: principal.keyId,
      model: prepared.model,
      state: 'queued',
      input: prepared.input,
      callbackUrl: prepared.callbackUrl,
      estimatedE9: parseUsd(prepared.estimate)!,
      priceMultiplier: principal.priceMultiplier,
      costE9: null,
      settled: false,
      errorCode: null,
      assets: null,
      usage: null,
      textOutput: null,
      requestId: command.requestId,
      sourceTaskId: command.sourceTaskId ?? null,
      retentionSeconds,
      createdAt: now,
      startedAt: null,
      completedAt: null,
      deadlineAt: new Date(now.getTime() + this.options.deadlineSeconds * 1000),
      purgedAt: null,
    };
    const inline = command.stream === true;
    const created = createdEvent(task, prepared, inline);
    try {
      // A task streamed here runs in this process: its task.created has no subscriber but billing's confirm,
      // so it is not written (no outbox row, relay or bus hop per answer). Its hold is confirmed only if its
      // answer is still running at its stream lease's first renewal (TextTaskIntakeUseCase.renew).
      await this.tasks.insert(task, inline ? [] : [created], inline ? command.lease : undefined);
    } catch (error) {
      // The task may exist after all: written under this id by the key's first holder, alive after all (the
      // id is the primary key, so only one of the two writes stays), or committed before the answer was lost.
      const existing = await this.tasks
        .findVisible(taskId, principal.accountId, principal.keyId)
        .catch(() => null);
      if (existing) return { task: existing, replayed: true };
      // Given back unless it may be the first holder's, which might still write its task: the sweeper
      // releases a reserve that no task confirms.
      if (!adopted) await this.holds.release(taskId).catch(() => undefined);
      throw error;
    }
    // The task trail starts here: one line per step, with the task and this request's id.
    this.logger?.info(
      { taskId, request_id: command.requestId, model: task.model, estimatedCost: prepared.estimate },
      'task accepted',
    );
    return { task, created, replayed: false };
  }

  /**
   * Claims the key for `taskId`; returns null when claimed, the task an earlier call created with it
   * (`replay`), or the task id of a holder whose task still does not exist after the wait (`adopt`).
   * Spec: the same key from a sibling API key is 409 without the task id; with other semantics 409; a
   * duplicate that arrives while the first call is still working waits for it. A holder that never wrote its
   * task died between claiming the key and writing it (a process killed, the database lost): after the wait
   * the caller finishes that creation under the holder's task id (docs/tasks.md, Idempotency-Key), where it
   * would otherwise answer 409 to every retry of the key for its whole 24 hours.
   */
  private async claim(
    principal: ApiKeyPrincipal,
    scope: string,
    idemKey: string,
    requestHash: string,
    taskId: string,
  ): Promise<{ replay?: TaskRow; adopt?: string } | null> {
    const giveUpAt = Date.now() + IN_PROGRESS_WAIT_MS;
    for (;;) {
      const now = this.clock.now();
      const holder = await this.tasks.claimIdempotencyKey({
        accountId: principal.accountId,
        scope,
        idemKey,
        keyId: principal.keyId,
        fingerprint: requestHash,
        taskId,
        now,
        windowStart: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS),
      });
      if (holder === null) return null;
      if (holder.taskId !== '') {
        if (holder.keyId !== principal.keyId) {
          throw new DomainError(BusinessCode.Conflict, 'idempotency.other_api_key');
        }
        if (holder.fingerprint !== requestHash) {
          throw new DomainError(BusinessCode.Conflict, 'idempotency.conflict');
        }
        const original = await this.tasks.findVisible(holder.taskId, principal.accountId, principal.keyId);
        if (original) return { replay: original };
        if (Date.now() >= giveUpAt) return { adopt: holder.taskId };
      }
      if (Date.now() >= giveUpAt) throw new DomainError(BusinessCode.Conflict, 'idempotency.in_progress');
      await new Promise((resolve) => setTimeout(resolve, IN_PROGRESS_POLL_MS));
    }
  }
}

/** createTask keys live in one space per account; a retry's key is scoped to its source task. */
const scopeOf = (command: CreateTaskCommand): string =>
  command.sourceTaskId ? `retry:${command.sourceTaskId}` : 'create';

function createdEvent(
  task: TaskRow,
  prepared: PreparedRequest,
  inline: boolean,
): OutgoingEvent<typeof TaskEventType.created> {
  return newEvent(
    TaskEventType.created,
    {
      taskId: task.id,
      accountId: task.accountId,
      keyId: task.keyId,
      model: task.model,
      input: prepared.input,
      estimatedCost: prepared.estimate,
      createdAt: task.createdAt.toISOString(),
      deadlineAt: task.deadlineAt.toISOString(),
      ...(inline ? { inline: true } : {}),
    },
    {
      key: task.id,
      occurredAt: task.createdAt,
      correlationId: task.requestId,
      causationId: task.requestId,
    },
  );
}
