import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import {
  BusinessCode,
  TaskEventType,
  endReleasesHold,
  type TaskEventName,
  type TypedEvent,
} from '@gen/contracts';
import { DomainError, LOGGER, parseUsd, type Logger as AppLogger } from '@gen/core';
import { EVENT_BUS, subscribeEvents, type EventBus, type Subscription } from '@gen/messaging';
import { BILLING_OPTIONS, type BillingOptions } from '../domain/billing-options';
import { ConfirmHoldUseCase } from '../use-cases/confirm-hold.use-case';
import { ReleaseHoldUseCase } from '../use-cases/release-hold.use-case';
import { SettleHoldUseCase } from '../use-cases/settle-hold.use-case';

export const BILLING_CONSUMER_GROUP = 'billing';

/**
 * Follows the task lifecycle (group `billing`): `task.created` confirms the task's hold, `task.succeeded`
 * settles it with the charge, `task.failed` / `task.expired` settle a non-zero charge (a disclosed charged
 * refusal) and otherwise release. Every hold operation is idempotent, so a redelivered event changes nothing.
 */
@Injectable()
export class TaskLifecycleConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('billing');
  private subscription: Subscription | undefined;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly confirmHold: ConfirmHoldUseCase,
    private readonly settleHold: SettleHoldUseCase,
    private readonly releaseHold: ReleaseHoldUseCase,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
    @Optional() @Inject(LOGGER) private readonly trail: AppLogger | null = null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.workers) return;
    this.subscription = await subscribeEvents(
      this.bus,
      { group: BILLING_CONSUMER_GROUP, types: Object.values(TaskEventType), logger: this.trail },
      (event) => this.handle(event),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = undefined;
  }

  /** Applies one event; a rejection means "not handled" and the bus delivers it again. */
  async handle(event: TypedEvent<TaskEventName>): Promise<void> {
    const cause = { correlationId: event.correlationId, causationId: event.id };
    try {
      switch (event.type) {
        case TaskEventType.created:
          await this.confirmHold.execute(event.payload.taskId);
          return;
        case TaskEventType.succeeded:
        case TaskEventType.failed:
        case TaskEventType.expired: {
          const { taskId, charge } = event.payload;
          if (endReleasesHold(event.type === TaskEventType.succeeded, parseUsd(charge))) {
            await this.releaseHold.execute(taskId, { cause });
            this.trail?.info({ taskId, request_id: event.correlationId }, 'hold released');
          } else {
            await this.settleHold.execute(taskId, charge, cause);
            this.trail?.info({ taskId, request_id: event.correlationId, charge }, 'hold settled');
          }
          return;
        }
      }
    } catch (error) {
      // A malformed event would fail the same way on every delivery: log it and move on.
      if (error instanceof DomainError && error.code === BusinessCode.InvalidRequest) {
        this.logger.error(
          `${event.type} ${event.id} ignored: ${error.messageId} (${JSON.stringify(error.params)})`,
        );
        return;
      }
      throw error;
    }
  }
}
