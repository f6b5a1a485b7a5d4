import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  CATALOG_PORT,
  ExecutionEventType,
  HOLDS_PORT,
  TASK_EVENT_LISTENERS,
  TaskEventType,
  type CatalogPort,
  type ExecutionEventName,
  type ExecutionUsage,
  type HoldsPort,
  type TaskEventListenersPort,
  type TaskTerminalEventName,
  type TaskTerminalPayload,
  type TypedEvent,
} from '@gen/contracts';
import { LOGGER, formatUsd, parseUsd, type Logger } from '@gen/core';
import { newEvent } from '@gen/messaging';
import { IN_FLIGHT_STATES, isTerminal } from '../domain/task-state';
import type { TaskRow } from '../persistence/task-row';
import { taskSnapshotOf } from '../mappers/task-record';
import type { OutboxEvents, TaskChange } from '../persistence/task.repository';
import { TaskRepository } from '../persistence/task.repository';
import { settleTask } from './settle-task';
import { StreamsAcceptedHere } from './streams-accepted-here';

/** The errorCode of a text answer the service lost: its process stopped (a cut, a lapsed stream lease). */
export const SERVICE_INTERRUPTED = 'service_interrupted';

/**
 * Applies what the runner reports (topic task.execution) to the task, once: a transition happens only from
 * an in-flight state, so a terminal task ignores later news and a redelivered event changes nothing.
 * A terminal transition writes its task.* event in the same transaction; billing settles from it.
 *
 * A text task streamed to a client whose terminal event nothing would read (no `callBackUrl`;
 * TASK_EVENT_LISTENERS says no endpoint of its account listens) ends quietly, settled first: its hold is
 * finished with no event (`settle` / `release`, `quiet`), then the task ends, settled at the charge billing
 * applied, its stream lease deleted, in one statement. Two writes per answer's end, and the report (which the
 * answer's last event waits for) resolves with the settlement durable. Should this process die between the two,
 * the lease lapses and the sweeper's failure report ends the task at the charge billing kept (billing finishes a
 * hold once, and the view it returns says how).
 */
@Injectable()
export class ApplyExecutionUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    @Inject(CATALOG_PORT) private readonly catalog: CatalogPort,
    @Inject(HOLDS_PORT) private readonly holds: HoldsPort,
    @Optional()
    @Inject(TASK_EVENT_LISTENERS)
    private readonly listeners: TaskEventListenersPort | null = null,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null = null,
    @Optional() @Inject(StreamsAcceptedHere) private readonly acceptedHere: StreamsAcceptedHere | null = null,
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
        const report = await this.reported(payload.taskId, TaskEventType.succeeded);
        if (!report) return null;
        const { task } = report;
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
        if (report.quiet) return this.endSettled(task, change, false);
        return this.tasks.transition(
          task.id,
          IN_FLIGHT_STATES,
          change,
          terminalEvents({ ...task, ...change }, event.id, formatUsd(charge)),
        );
      }
      case ExecutionEventType.failed: {
        const { payload } = event;
        const report = await this.reported(payload.taskId, TaskEventType.failed);
        if (!report) return null;
        const { task } = report;
        const change = {
          state: 'failed',
          ...(payload.startedAt !== undefined ? { startedAt: new Date(payload.startedAt) } : {}),
          completedAt: new Date(payload.finishedAt),
          errorCode: payload.errorCode,
          costE9: 0n,
        } as const;
        // An answer the service lost (its process stopped): the client may send it again under its key.
        const forget = payload.errorCode === SERVICE_INTERRUPTED;
        if (report.quiet) return this.endSettled(task, change, forget);
        return this.tasks.transition(
          task.id,
          IN_FLIGHT_STATES,
          change,
          terminalEvents({ ...task, ...change }, event.id, '0'),
          { forgetIdempotencyKey: forget },
        );
      }
    }
  }

  /**
   * The task a final report is about, and whether its end is quiet (streamed, and its terminal event unheard);
   * null when it ended already (a terminal task ignores later news: an expired task's late result) or is
   * unknown. A stream this process accepted, within its deadline, is taken as accepted (StreamsAcceptedHere):
   * no read; the transition checks its state.
   */
  private async reported(
    taskId: string,
    type: TaskTerminalEventName,
  ): Promise<{ readonly task: TaskRow; readonly quiet: boolean } | null> {
    const here = this.acceptedHere?.take(taskId);
    if (here && here.deadlineAt.getTime() > Date.now() && (await this.unheard(here, type)))
      return { task: here, quiet: true };
    const found = await this.tasks.findForReport(taskId);
    if (!found || isTerminal(found.task.state)) return null;
    return { task: found.task, quiet: found.streamed && (await this.unheard(found.task, type)) };
  }

  /** Nothing outside tasks and billing would read this terminal event of the task's (see the class). */
  private async unheard(task: TaskRow, type: TaskTerminalEventName): Promise<boolean> {
    if (task.callbackUrl !== null || this.listeners === null) return false;
    try {
      return !(await this.listeners.listens(task.accountId, type));
    } catch {
      return false;
    }
  }

  /**
   * The quiet end of a streamed task (see the class): the hold finished first, with no event, then the task
   * ended settled at billing's charge (a hold finished before, by a report that lost the race to the
   * transition or by a process that died after finishing it, keeps its charge: the task records that one).
   */
  private async endSettled(
    task: TaskRow,
    change: TaskChange & { readonly state: 'succeeded' | 'failed'; readonly costE9: bigint },
    forget: boolean,
  ): Promise<TaskRow | null> {
    const hold = await settleTask(this.holds, { id: task.id, ...change }, { quiet: true });
    const final = hold?.status === 'settled' || hold?.status === 'released';
    const cost = final ? (parseUsd(hold.charged ?? '0') ?? 0n) : change.costE9;
    const ended = await this.tasks.transition(task.id, IN_FLIGHT_STATES, { ...change, costE9: cost }, null, {
      forgetIdempotencyKey: forget,
      settled: final,
    });
    // Its trail line is the consumer's `task succeeded` / `task failed`, with the charge (TaskEventConsumers).
    if (!hold)
      this.logger?.warn(
        { taskId: task.id, request_id: task.requestId },
        'the hold of a streamed task was not found: the stream lease sweeper records it settled at 0',
      );
    // Ended meanwhile by another way (its deadline): the hold's final word is recorded on it all the same.
    if (!ended && final) await this.tasks.markSettled(task.id, cost);
    return ended;
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
