import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  HOLDS_PORT,
  type AcceptedTextTask,
  type HoldsPort,
  type OpenTextTaskCommand,
  type StreamLease,
  type TextTaskIntakePort,
} from '@gen/contracts';
import { LOGGER, formatUsd, type Logger } from '@gen/core';
import { LRUCache } from 'lru-cache';
import { TaskRepository } from '../persistence/task.repository';
import { CreateTaskUseCase } from './create-task.use-case';
import { StreamsAcceptedHere } from './streams-accepted-here';

/** How many confirmed holds `renew` remembers (the least recently renewed leaving first: confirmed again). */
const CONFIRMED_KEPT = 100_000;

/**
 * TEXT_TASK_INTAKE: accepts a text task for a stream (createTask with `stream`), in the app that owns the
 * tasks; the stream runs where the client is (OpenTextTaskUseCase), in this process or another, which holds the
 * task's stream lease (written with the task) and renews it here while it streams.
 *
 * The task's hold is confirmed by the lease's first renewal, not at acceptance: most answers end (and are
 * settled, from `reserved` as well) before it, and need no confirm statement at all. An answer still running
 * then, a third of a lease (TEXT_STREAM_LEASE_MS, at most 10 minutes / 3) after its acceptance, has its hold
 * confirmed well before the reserve's time (5 minutes) is up. A task whose streaming process died before is
 * ended by its lapsed lease (its hold released), as it would be with a confirmed hold.
 */
@Injectable()
export class TextTaskIntakeUseCase implements TextTaskIntakePort {
  /** Tasks whose holds this process confirmed (renewals repeat every task still streaming). */
  private readonly confirmed = new LRUCache<string, true>({ max: CONFIRMED_KEPT });

  constructor(
    private readonly createTask: CreateTaskUseCase,
    private readonly tasks: TaskRepository,
    private readonly acceptedHere: StreamsAcceptedHere,
    @Inject(HOLDS_PORT) private readonly holds: HoldsPort,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null = null,
  ) {}

  /** Renews `owner`'s leases of `taskIds`; returns those it still holds, whose holds it confirms once. */
  async renew(owner: string, taskIds: readonly string[], leaseMs: number): Promise<string[]> {
    const kept = await this.tasks.renewStreamLeases(owner, taskIds, leaseLength(leaseMs));
    await Promise.all(
      kept.filter((taskId) => !this.confirmed.has(taskId)).map((taskId) => this.confirm(taskId)),
    );
    return kept;
  }

  /**
   * Should the confirm fail, the next renewal tries again; the hold stays `reserved` meanwhile, which the
   * settlement ends just as well.
   */
  private async confirm(taskId: string): Promise<void> {
    try {
      if (await this.holds.confirm(taskId)) this.confirmed.set(taskId, true);
    } catch (error) {
      this.logger?.warn(
        { taskId, err: error },
        'the hold of a streamed task could not be confirmed: the next lease renewal tries again',
      );
    }
  }

  async accept(command: OpenTextTaskCommand, lease?: StreamLease): Promise<AcceptedTextTask> {
    const { task, created, replayed } = await this.createTask.execute({
      principal: command.principal,
      request: {
        model: command.model,
        input: command.input,
        ...(command.quoteId !== undefined ? { quoteId: command.quoteId } : {}),
        ...(command.expectedCost !== undefined ? { expectedCost: command.expectedCost } : {}),
        ...(command.callBackUrl !== undefined ? { callBackUrl: command.callBackUrl } : {}),
      },
      ...(command.idempotencyKey !== undefined ? { idempotencyKey: command.idempotencyKey } : {}),
      ...(command.retention !== undefined ? { retention: command.retention } : {}),
      requestId: command.requestId,
      stream: true,
      ...(lease ? { lease: { owner: lease.owner, leaseMs: leaseLength(lease.leaseMs) } } : {}),
    });
    if (created && !replayed) this.acceptedHere.remember(task);
    return {
      taskId: task.id,
      model: task.model,
      estimatedCost: formatUsd(task.estimatedE9),
      run:
        replayed || !created
          ? null
          : {
              payload: created.payload,
              cause: { causationId: created.id, correlationId: created.correlationId },
            },
    };
  }
}

/** A lease length as TEXT_STREAM_LEASE_MS allows it (it may come over the service transport). */
function leaseLength(ms: number): number {
  return Number.isFinite(ms) ? Math.min(600_000, Math.max(1000, Math.round(ms))) : 10_000;
}
