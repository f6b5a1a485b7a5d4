import {
  Inject,
  Injectable,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { IdPrefix, TaskEventType, type TypedEvent } from '@gen/contracts';
import { APP_CONFIG, CLOCK, newId, type AppConfig, type Clock, LOGGER, type Logger } from '@gen/core';
import { EVENT_BUS, subscribeEvents, type EventBus, type Subscription } from '@gen/messaging';
import { DeliveryRepository } from '../persistence/delivery.repository';
import { MessageRepository } from '../persistence/message.repository';
import { DeliverCallbackUseCase } from '../use-cases/deliver-callback.use-case';
import { DeliverEndpointMessageUseCase } from '../use-cases/deliver-endpoint-message.use-case';
import { QueueEndpointMessagesUseCase } from '../use-cases/queue-endpoint-messages.use-case';
import type { AttemptOutcome } from '../outbound/attempt-outcome';

/**
 * How often due deliveries are looked for: retries are at least 10 s apart by default, and a new delivery is
 * sent at once in the process that queued it.
 */
export const DELIVERY_POLL_MS = 1000;
/** A claimed delivery is not claimed again for this long: longer than an attempt can take. */
const LEASE_MS = 60_000;
const BATCH = 50;

const TERMINAL = [TaskEventType.succeeded, TaskEventType.failed, TaskEventType.expired];
type TerminalEvent = TypedEvent<(typeof TERMINAL)[number]>;

/**
 * Queues the webhooks of a task that reached a terminal state (consumer group `webhooks` on task.lifecycle):
 * its callback when it has a `callBackUrl`, and one message per matching account-level endpoint; both are
 * idempotent, so a redelivered event queues nothing twice. Sends due callbacks and messages: several replicas
 * share the work through leases, and every attempt and schedule is in the database, so a restart of any
 * process loses nothing.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
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
    private readonly messages: MessageRepository,
    private readonly deliverCallback: DeliverCallbackUseCase,
    private readonly queueMessages: QueueEndpointMessagesUseCase,
    private readonly deliverMessage: DeliverEndpointMessageUseCase,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null,
  ) {
    this.payloadVersion = config.WEBHOOK_PAYLOAD_VERSION === '1' ? 1 : 2;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await subscribeEvents(
      this.bus,
      { group: 'webhooks', types: TERMINAL, logger: this.logger },
      (event) => this.queue(event),
    );
    this.timer = setInterval(() => this.tick(), DELIVERY_POLL_MS);
  }

  private async queue(event: TerminalEvent): Promise<void> {
    const { payload } = event;
    if (!payload.record) return;
    const [callback, messages] = await Promise.all([
      payload.callbackUrl
        ? this.deliveries.enqueue({
            id: newId(IdPrefix.webhookDelivery),
            taskId: payload.taskId,
            accountId: payload.accountId,
            url: payload.callbackUrl,
            payloadVersion: this.payloadVersion,
            record: payload.record,
            now: this.clock.now(),
          })
        : false,
      this.queueMessages.execute(event),
    ]);
    if (callback || messages > 0) this.tick();
  }

  /** Runs one pass unless one is running; passes never overlap. */
  private tick(): void {
    if (this.stopped) return;
    this.running = this.running.then(() => this.pass());
  }

  private async pass(): Promise<void> {
    if (this.stopped) return;
    try {
      const now = this.clock.now();
      const [callbacks, messages] = await Promise.all([
        this.deliveries.claimDue(now, LEASE_MS, BATCH),
        this.messages.claimDue(now, LEASE_MS, BATCH),
      ]);
      const [callbackOutcomes, ...messageOutcomes] = await Promise.all([
        this.deliverCallback.attemptAll(callbacks),
        ...messages.map((message) => this.deliverMessage.attempt(message)),
      ]);
      // The task trail: one line per attempt, with the task it is about.
      callbacks.forEach((delivery, i) =>
        this.logAttempt('callback', delivery.taskId, delivery.id, delivery.attempts + 1, callbackOutcomes[i]),
      );
      messages.forEach((message, i) =>
        this.logAttempt(
          'endpoint message',
          message.taskId,
          message.id,
          message.attempts + 1,
          messageOutcomes[i],
        ),
      );
      // A full batch: more may be due; look again at once rather than at the next tick.
      if (callbacks.length === BATCH || messages.length === BATCH) this.tick();
    } catch (error) {
      this.logger?.warn({ err: error }, 'webhook delivery pass failed; trying again shortly');
    }
  }

  private logAttempt(
    kind: string,
    taskId: string,
    deliveryId: string,
    attempt: number,
    outcome: AttemptOutcome | string | undefined,
  ): void {
    if (outcome === undefined) return;
    if (typeof outcome === 'string') {
      this.logger?.info({ taskId, deliveryId, reason: outcome }, `${kind} dropped`);
      return;
    }
    const line = {
      taskId,
      deliveryId,
      attempt,
      status: outcome.status,
      reason: outcome.ok ? undefined : outcome.reason,
    };
    this.logger?.info(line, outcome.ok ? `${kind} delivered` : `${kind} attempt failed`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.subscription?.stop();
    // Attempts in flight finish and are recorded; claimed deliveries not sent are retried after their lease.
    await this.running;
  }
}
