import {
  Inject,
  Injectable,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { TaskEventType, type TypedEvent } from '@gen/contracts';
import { LOGGER, type Logger } from '@gen/core';
import { EVENT_BUS, subscribeEvents, type EventBus, type Subscription } from '@gen/messaging';
import { activeTraceparent } from '@gen/observability';
import { JobRepository } from '../persistence/job.repository';
import { JobDispatcher } from '../workers/job-dispatcher';

/** The consumer group of the runners on task.lifecycle. */
export const RUNNER_CONSUMER_GROUP = 'runner';

/**
 * Consumes task.created (group `runner`): the task is written to the runner queue before the handler
 * resolves, so the event is acknowledged (the Kafka offset committed, the embedded outbox row deleted) only
 * once the task is durably queued. A redelivered event adds nothing. Then a dispatcher claims it.
 */
@Injectable()
export class TaskCreatedConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private subscription: Subscription | undefined;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly jobs: JobRepository,
    private readonly dispatcher: JobDispatcher,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await subscribeEvents(
      this.bus,
      { group: RUNNER_CONSUMER_GROUP, types: [TaskEventType.created], logger: this.logger },
      (event) => this.handle(event),
    );
  }

  async handle(event: TypedEvent<typeof TaskEventType.created>): Promise<void> {
    const task = event.payload;
    // A text stream runs where it was asked for (CHAT_EXECUTION), not in the queue.
    if (task.inline === true) return;
    // The consumer span (tracing on) is stored with the job: the execution, whenever it comes, continues it.
    const traceparent = activeTraceparent();
    await this.jobs.add(task, {
      causationId: event.id,
      correlationId: event.correlationId,
      ...(traceparent ? { traceparent } : {}),
    });
    this.logger?.info(
      { taskId: task.taskId, request_id: event.correlationId, model: task.model },
      'task dispatched to the runner queue',
    );
    this.dispatcher.wake();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.subscription?.stop();
  }
}
