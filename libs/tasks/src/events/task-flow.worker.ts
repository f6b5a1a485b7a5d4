import {
  Inject,
  Injectable,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { ExecutionEventType, HoldEventType } from '@gen/contracts';
import { CLOCK, type Clock, LOGGER, type Logger } from '@gen/core';
import {
  EVENT_BUS,
  OutboxRelay,
  OutboxSignal,
  outboxMetrics,
  subscribeEvents,
  type EventBus,
  type Subscription,
} from '@gen/messaging';
import { METRICS, type Metrics } from '@gen/observability';
import { DATABASE, type Database } from '@gen/persistence';
import { IDEMPOTENCY_WINDOW_MS } from '../domain/task-options';
import { TASKS_SCHEMA, TasksMigrations } from '../persistence/tasks-schema';
import { TaskRepository } from '../persistence/task.repository';
import { ApplyExecutionUseCase } from '../use-cases/apply-execution.use-case';
import { ExpireTasksUseCase } from '../use-cases/expire-tasks.use-case';
import { InterruptStreamsUseCase } from '../use-cases/interrupt-streams.use-case';
import { PurgeTaskUseCase } from '../use-cases/purge-task.use-case';
import { RecordSettlementUseCase } from '../use-cases/record-settlement.use-case';

/** How often the sweeper looks for tasks past their deadline. */
export const EXPIRY_SWEEP_MS = 1000;
/** How often outputs and prompts past their retention are destroyed. */
export const RETENTION_SWEEP_MS = 60_000;

/**
 * The tasks service's background work: the outbox relay (task.lifecycle), the consumers of the runner's
 * reports and of billing's settlements, the deadline, stream lease and retention sweepers and the cleanup of old
 * idempotency records.
 * All of it stops, draining, before the process ends.
 */
@Injectable()
export class TaskFlowWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private relay: OutboxRelay | undefined;
  private subscriptions: Subscription[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> = Promise.resolve();
  private lastCleanup = 0;
  private lastPurge = 0;
  private removeMetrics: (() => void) | undefined;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
    // Migrations run in TasksMigrations.onModuleInit, before any of this starts.
    readonly migrations: TasksMigrations,
    private readonly tasks: TaskRepository,
    private readonly execution: ApplyExecutionUseCase,
    private readonly settlement: RecordSettlementUseCase,
    private readonly expiry: ExpireTasksUseCase,
    private readonly interruption: InterruptStreamsUseCase,
    private readonly retention: PurgeTaskUseCase,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null,
    private readonly outboxSignal: OutboxSignal,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics | null = null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.relay = new OutboxRelay(this.database, this.bus, {
      schema: TASKS_SCHEMA.schema,

      signal: this.outboxSignal,
    });
    this.relay.start();
    // The process that relays the outbox reports its depth (/metrics).
    this.removeMetrics = this.metrics
      ? outboxMetrics(this.metrics, this.database, TASKS_SCHEMA.schema)
      : undefined;
    this.subscriptions = [
      await subscribeEvents(
        this.bus,
        { group: 'tasks', types: Object.values(ExecutionEventType), logger: this.logger },
        async (event) => {
          const task = await this.execution.apply(event);
          // The task trail: one line per step, with the task and the request that created it.
          if (task) this.logger?.info({ taskId: task.id, request_id: task.requestId }, `task ${task.state}`);
        },
      ),
      await subscribeEvents(
        this.bus,
        { group: 'tasks', types: Object.values(HoldEventType), logger: this.logger },
        async (event) => {
          const settled = await this.settlement.apply(event);
          if (settled)
            this.logger?.info(
              { taskId: settled.taskId, request_id: event.correlationId, cost: settled.charged },
              'task settled',
            );
        },
      ),
    ];
    this.timer = setInterval(() => {
      this.sweeping = this.sweeping.then(() => this.sweep());
    }, EXPIRY_SWEEP_MS);
  }

  private async sweep(): Promise<void> {
    try {
      await this.expiry.execute();
      await this.interruption.execute();
      const now = this.clock.now().getTime();
      if (now - this.lastPurge >= RETENTION_SWEEP_MS) {
        this.lastPurge = now;
        await this.retention.purgeExpired();
      }
      if (now - this.lastCleanup > 3600_000) {
        this.lastCleanup = now;
        await this.tasks.deleteIdempotencyBefore(new Date(now - IDEMPOTENCY_WINDOW_MS));
      }
    } catch (error) {
      // The database is briefly unreachable: the next sweep tries again.
      this.logger?.warn({ err: error }, 'task sweep failed; trying again in a second');
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
    await Promise.all(this.subscriptions.map((s) => s.stop()));
    // The direct settlements of the last reports, while billing still answers (a lapsed lease would otherwise
    // leave them to the sweeper after the next start).
    await this.execution.settled();
    await this.relay?.stop();
    this.removeMetrics?.();
  }
}
