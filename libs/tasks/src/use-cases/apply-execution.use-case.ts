import { Inject, Injectable } from '@nestjs/common';
import {
  CATALOG_PORT,
  ExecutionEventType,
  TaskEventType,
  type CatalogPort,
  type ExecutionEventName,
  type ExecutionUsage,
  type TaskTerminalPayload,
  type TypedEvent,
} from '@gen/contracts';
import { formatUsd, parseUsd } from '@gen/core';
import { newEvent } from '@gen/messaging';
import { IN_FLIGHT_STATES, isTerminal } from '../domain/task-state';
import type { TaskRow } from '../persistence/task-row';
import { taskSnapshotOf } from '../mappers/task-record';
import type { OutboxEvents } from '../persistence/task.repository';
import { TaskRepository } from '../persistence/task.repository';

/** The errorCode of a text answer the service lost: its process stopped (a cut, a lapsed stream lease). */
export const SERVICE_INTERRUPTED = 'service_interrupted';

/**
 * Applies what the runner reports (topic task.execution) to the task, once: a transition happens only from
 * an in-flight state, so a terminal task ignores later news and a redelivered event changes nothing.
 * A terminal transition writes its task.* event in the same transaction; billing settles from it.
 */
@Injectable()
export class ApplyExecutionUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    @Inject(CATALOG_PORT) private readonly catalog: CatalogPort,
  ) {}

  /** Returns the task as the transition left it, or null when the event changed nothing. */
  async apply(event: TypedEvent<ExecutionEventName>): Promise<TaskRow | null> {
    switch (event.type) {
      case ExecutionEventType.started: {
        const { payload } = event;
        return this.tasks.transition(
          payload.taskId,
          ['queued'],
          { state: 'running', startedAt: new Date(payload.startedAt) },
          null,
        );
      }
      case ExecutionEventType.succeeded: {
        const { payload } = event;
        const task = await this.tasks.findById(payload.taskId);
        // A terminal task ignores later news (an expired task's late result).
        if (!task || isTerminal(task.state)) return null;
        // Spec: if no file was stored, cost is 0. A text task's output is its answer. Never above the hold.
        const delivered =
          payload.text !== undefined || payload.assets.some((a) => a.status !== 'unavailable');
        const measured = delivered ? this.charge(task, payload.usage) : 0n;
        const charge = measured < task.estimatedE9 ? measured : task.estimatedE9;
        const change = {
          state: 'succeeded',
          ...(payload.startedAt !== undefined ? { startedAt: new Date(payload.startedAt) } : {}),
          completedAt: new Date(payload.finishedAt),
          assets: payload.assets,
          usage: payload.usage,
          ...(payload.text !== undefined ? { textOutput: payload.text } : {}),
          costE9: charge,
        } as const;
        return this.tasks.transition(
          task.id,
          IN_FLIGHT_STATES,
          change,
          terminalEvents({ ...task, ...change }, event.id, formatUsd(charge)),
        );
      }
      case ExecutionEventType.failed: {
        const { payload } = event;
        const task = await this.tasks.findById(payload.taskId);
        if (!task || isTerminal(task.state)) return null;
        const change = {
          state: 'failed',
          ...(payload.startedAt !== undefined ? { startedAt: new Date(payload.startedAt) } : {}),
          completedAt: new Date(payload.finishedAt),
          errorCode: payload.errorCode,
          costE9: 0n,
        } as const;
        return this.tasks.transition(
          task.id,
          IN_FLIGHT_STATES,
          change,
          terminalEvents({ ...task, ...change }, event.id, '0'),
          // An answer the service lost (its process stopped): the client may send it again under its key.
          { forgetIdempotencyKey: payload.errorCode === SERVICE_INTERRUPTED },
        );
      }
    }
  }

  /**
   * The charge of the measured usage at the task's prices. A model taken out of the catalog since acceptance
   * is charged the hold rather than leaving the event undeliverable (it would be redelivered forever).
   */
  private charge(task: TaskRow, usage: ExecutionUsage): bigint {
    try {
      return parseUsd(this.catalog.chargeFor(task.model, usage, task.priceMultiplier)) ?? task.estimatedE9;
    } catch {
      return task.estimatedE9;
    }
  }
}

/** The task.succeeded / task.failed / task.expired event of a task that just became terminal. */
export function terminalEvents(task: TaskRow, causationId: string, charge: string): OutboxEvents {
  const state = task.state as TaskTerminalPayload['state'];
  const payload: TaskTerminalPayload = {
    taskId: task.id,
    accountId: task.accountId,
    keyId: task.keyId,
    model: task.model,
    state,
    charge,
    ...(task.errorCode ? { errorCode: task.errorCode } : {}),
    completedAt: (task.completedAt ?? new Date()).toISOString(),
    ...(task.callbackUrl ? { callbackUrl: task.callbackUrl } : {}),
    record: taskSnapshotOf(task),
  };
  const type =
    state === 'succeeded'
      ? TaskEventType.succeeded
      : state === 'failed'
        ? TaskEventType.failed
        : TaskEventType.expired;
  return [newEvent(type, payload, { key: task.id, correlationId: task.requestId, causationId })];
}
