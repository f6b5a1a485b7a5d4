import { Inject, Injectable, Optional } from '@nestjs/common';
import { EVENT_BUS, OutboxRelay, OutboxSignal, outboxMetrics, type EventBus } from '@gen/messaging';
import { METRICS, type Metrics } from '@gen/observability';
import { DATABASE, type Database } from '@gen/persistence';
import { TASKS_SCHEMA } from '../persistence/tasks-schema';

/**
 * Publishes the tasks outbox (`task.lifecycle` events) to the event bus; stopped last, it drains what the
 * consumers' final reports wrote. Started and stopped by `TaskBackgroundWork`.
 */
@Injectable()
export class TaskOutboxRelay {
  private relay: OutboxRelay | undefined;
  private removeMetrics: (() => void) | undefined;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly outboxSignal: OutboxSignal,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics | null = null,
  ) {}

  start(): void {
    this.relay = new OutboxRelay(this.database, this.bus, {
      schema: TASKS_SCHEMA.schema,
      signal: this.outboxSignal,
    });
    this.relay.start();
    // The process that relays the outbox reports its depth (/metrics).
    this.removeMetrics = this.metrics
      ? outboxMetrics(this.metrics, this.database, TASKS_SCHEMA.schema)
      : undefined;
  }

  async stop(): Promise<void> {
    await this.relay?.stop();
    this.relay = undefined;
    this.removeMetrics?.();
  }
}
