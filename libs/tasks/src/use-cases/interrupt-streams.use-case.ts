import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { ExecutionEventType, HOLDS_PORT, type HoldsPort } from '@gen/contracts';
import { CLOCK, LOGGER, type Clock, type Logger } from '@gen/core';
import { EVENT_BUS, newEvent, publishEvents, type EventBus } from '@gen/messaging';
import { isTerminal } from '../domain/task-state';
import { TASKS_OPTIONS, type TasksOptions } from '../domain/task-options';
import { TaskRepository } from '../persistence/task.repository';
import { SERVICE_INTERRUPTED } from './apply-execution.use-case';
import { settleTask } from './settle-task';

/** How long a sweeper holds the lapsed leases it took while it reports their tasks (another takes over after). */
const CLAIM_MS = 30_000;

/**
 * Ends the text tasks whose stream lease lapsed: the process that streamed them died (kill -9, a lost machine)
 * or stopped renewing. Each is reported failed with `service_interrupted` on task.execution, as its own process
 * would have reported a failure, so the task fails (cost 0), billing releases its hold and the tasks service
 * frees its Idempotency-Key (ApplyExecutionUseCase). The report goes to the bus keyed by the task, after the
 * lease lapsed: a report the streaming process published before it stopped renewing comes first, and wins.
 *
 * A lease lives until its task is settled (the statement that records the settlement deletes it). One that lapsed
 * on an ended task that is not settled yet (an announced end whose settlement by billing did not come) is
 * settled here, directly, as billing's consumer would have (the process that ended it died in between, or its
 * settlement failed): idempotent, billing finishes a hold once; if billing holds nothing for it, it is recorded
 * settled at 0. On a settled task, or a task gone, the lease is only deleted.
 *
 * Run by the tasks service's sweeper every second. A lease that lapsed while no process of the tasks service ran
 * may belong to a stream still alive whose renewals failed meanwhile: for half a lease after this process
 * started, nothing is ended (its owner renews every third of it).
 */
@Injectable()
export class InterruptStreamsUseCase {
  private readonly owner = `sweeper:${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly startedAt: number;

  constructor(
    private readonly tasks: TaskRepository,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(HOLDS_PORT) private readonly holds: HoldsPort,
    @Inject(TASKS_OPTIONS) private readonly options: TasksOptions,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null = null,
  ) {
    this.startedAt = clock.now().getTime();
  }

  /** Ends up to `limit` tasks whose lease lapsed; returns how many it reported. */
  async execute(limit = 200): Promise<number> {
    const now = this.clock.now();
    if (now.getTime() - this.startedAt < this.options.streamLeaseMs / 2) return 0;
    const lapsed = await this.tasks.claimLapsedStreamLeases(this.owner, CLAIM_MS, limit);
    if (lapsed.length === 0) return 0;
    const done: string[] = [];
    let ended = 0;
    for (const lease of lapsed) {
      // A task gone, or ended and settled, only leaves its lease behind.
      if (lease.state === null || (isTerminal(lease.state) && lease.settled)) {
        done.push(lease.taskId);
        continue;
      }
      if (isTerminal(lease.state)) {
        // Ended, not settled: the settlement's record (billing.holds -> markSettled) ends the lease. Until then
        // the claim keeps other sweepers off; if this fails, the claim lapses and a sweeper tries again.
        try {
          const hold = await settleTask(this.holds, {
            id: lease.taskId,
            state: lease.state,
            costE9: lease.costE9,
          });
          if (hold === null) {
            // Billing holds nothing for it, so nothing was or will be charged: recorded so, with its lease
            // ended (no settlement would ever come to end it, and every sweep would claim it again).
            await this.tasks.markSettled(lease.taskId, 0n);
            this.logger?.warn(
              { taskId: lease.taskId, request_id: lease.requestId },
              'ended task recorded settled at 0 by the sweeper: billing holds nothing for it',
            );
            continue;
          }
          this.logger?.warn(
            { taskId: lease.taskId, request_id: lease.requestId },
            'ended task settled by the sweeper: its own settlement did not happen (stream lease lapsed)',
          );
        } catch (error) {
          this.logger?.warn({ taskId: lease.taskId, err: error }, 'lapsed stream lease: settlement failed');
        }
        continue;
      }
      try {
        await publishEvents(this.bus, [
          newEvent(
            ExecutionEventType.failed,
            { taskId: lease.taskId, errorCode: SERVICE_INTERRUPTED, finishedAt: now.toISOString() },
            {
              key: lease.taskId,
              occurredAt: now,
              correlationId: lease.requestId ?? lease.taskId,
              causationId: `lease:${lease.taskId}`,
            },
          ),
        ]);
      } catch (error) {
        // Not reported: the claim lapses and a sweeper tries again.
        this.logger?.warn({ taskId: lease.taskId, err: error }, 'lapsed stream lease could not be reported');
        continue;
      }
      // Its lease stays (claimed) until the failure is settled.
      ended += 1;
      this.logger?.warn(
        { taskId: lease.taskId, request_id: lease.requestId },
        'task interrupted: the process streaming it stopped (stream lease lapsed)',
      );
    }
    await this.tasks.releaseStreamLeases(this.owner, done);
    return ended;
  }
}
