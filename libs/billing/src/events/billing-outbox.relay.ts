import {
  Inject,
  Injectable,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { EVENT_BUS, OutboxRelay, outboxMetrics, type EventBus, OutboxSignal } from '@gen/messaging';
import { METRICS, type Metrics } from '@gen/observability';
import { DATABASE, type Database } from '@gen/persistence';
import { BILLING_OPTIONS, type BillingOptions } from '../domain/billing-options';
import { BILLING_SCHEMA } from '../persistence/billing-prisma';

/** Publishes billing's outbox (`billing.holds` events) to the event bus while the app runs; drains on shutdown. */
@Injectable()
export class BillingOutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private relay: OutboxRelay | undefined;
  private removeMetrics: (() => void) | undefined;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
    private readonly outboxSignal: OutboxSignal,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics | null = null,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.options.workers) return;
    this.relay = new OutboxRelay(this.database, this.bus, {
      schema: BILLING_SCHEMA.schema,
      pollMs: this.options.relayPollMs,
      signal: this.outboxSignal,
    });
    this.relay.start();
    // The process that relays the outbox reports its depth (/metrics).
    this.removeMetrics = this.metrics
      ? outboxMetrics(this.metrics, this.database, BILLING_SCHEMA.schema)
      : undefined;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.relay?.stop();
    this.relay = undefined;
    this.removeMetrics?.();
  }
}
