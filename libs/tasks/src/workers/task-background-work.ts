import { Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { TaskEventConsumers } from '../events/task-event.consumers';
import { TaskOutboxRelay } from '../events/task-outbox.relay';
import { TasksMigrations } from '../persistence/tasks-schema';
import { TaskSweeper } from './task-sweeper';

/**
 * Starts the tasks service's background work when the app is up and stops it, in order, before the process
 * ends: the sweeper first, then the consumers (with the settlements of their last reports), the outbox relay
 * last so that it drains what they wrote. Nest stops the providers of one module together, so the order is
 * kept here, not in three lifecycle hooks.
 */
@Injectable()
export class TaskBackgroundWork implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    // Migrations run in TasksMigrations.onModuleInit, before any of this starts.
    readonly migrations: TasksMigrations,
    private readonly relay: TaskOutboxRelay,
    private readonly consumers: TaskEventConsumers,
    private readonly sweeper: TaskSweeper,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.relay.start();
    await this.consumers.start();
    this.sweeper.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.sweeper.stop();
    await this.consumers.stop();
    await this.relay.stop();
  }
}
