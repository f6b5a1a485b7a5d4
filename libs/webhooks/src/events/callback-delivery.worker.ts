import {
  Inject,
  Injectable,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import {
  IdPrefix,
  TaskEventType,
  Topics,
  type EventEnvelope,
  type TaskTerminalPayload,
} from '@gen/contracts';
import { APP_CONFIG, CLOCK, newId, type AppConfig, type Clock, type Logger } from '@gen/core';
import { EVENT_BUS, type EventBus, type Subscription } from '@gen/messaging';
import { LOGGER } from '@gen/platform';
import { DeliveryRepository } from '../persistence/delivery.repository';
import { DeliverCallbackUseCase } from '../use-cases/deliver-callback.use-case';

/** How often due deliveries are looked for (a new one is sent at once in the process that queued it). */
export const DELIVERY_POLL_MS = 250;
/** A claimed delivery is not claimed again for this long: longer than an attempt can take. */
const LEASE_MS = 60_000;
const BATCH = 50;

const TERMINAL: readonly string[] = [TaskEventType.succeeded, TaskEventType.failed, TaskEventType.expired];

/**
 * Queues one callback per task that reached a terminal state with a `callBackUrl` (consumer group `webhooks`
 * on task.lifecycle), and sends due deliveries: several replicas share the work through leases, and every
 * attempt and schedule is in the database, so a restart of any process loses nothing.
 */
@Injectable()
export class CallbackDeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private subscription: Subscription | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly payloadVersion: 1 | 2;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly deliveries: DeliveryRepository,
    private readonly deliver: DeliverCallbackUseCase,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null,
  ) {
    this.payloadVersion = config.WEBHOOK_PAYLOAD_VERSION === '1' ? 1 : 2;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.bus.subscribe(Topics.taskLifecycle, 'webhooks', (event) =>
      this.queue(event),
    );
    this.timer = setInterval(() => this.tick(), DELIVERY_POLL_MS);
  }

  private async queue(event: EventEnvelope): Promise<void> {
    if (!TERMINAL.includes(event.type)) return;
    const payload = event.payload as TaskTerminalPayload;
    if (!payload.callbackUrl || !payload.record) return;
    const queued = await this.deliveries.enqueue({
      id: newId(IdPrefix.webhookDelivery),
      taskId: payload.taskId,
      accountId: payload.accountId,
      url: payload.callbackUrl,
      payloadVersion: this.payloadVersion,
      record: payload.record,
      now: this.clock.now(),
    });
    if (queued) this.tick();
  }

  /** Runs one pass unless one is running; passes never overlap. */
  private tick(): void {
    if (this.stopped) return;
    this.running = this.running.then(() => this.pass());
  }

  private async pass(): Promise<void> {
    if (this.stopped) return;
    try {
      const due = await this.deliveries.claimDue(this.clock.now(), LEASE_MS, BATCH);
      await Promise.all(due.map((delivery) => this.deliver.attempt(delivery)));
      // A full batch: more may be due; look again at once rather than at the next tick.
      if (due.length === BATCH) this.tick();
    } catch (error) {
      this.logger?.warn({ err: error }, 'callback delivery pass failed; trying again shortly');
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.subscription?.stop();
    // Attempts in flight finish and are recorded; claimed deliveries not sent are retried after their lease.
    await this.running;
  }
}
