import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, type Clock, LOGGER, type Logger } from '@gen/core';
import { IDEMPOTENCY_WINDOW_MS } from '../domain/task-options';
import { TaskRepository } from '../persistence/task.repository';
import { ExpireTasksUseCase } from '../use-cases/expire-tasks.use-case';
import { InterruptStreamsUseCase } from '../use-cases/interrupt-streams.use-case';
import { PurgeTaskUseCase } from '../use-cases/purge-task.use-case';

/** How often the sweeper looks for tasks past their deadline. */
export const EXPIRY_SWEEP_MS = 1000;
/** How often outputs and prompts past their retention are destroyed. */
export const RETENTION_SWEEP_MS = 60_000;
/** How often idempotency records older than their window are deleted. */
const IDEMPOTENCY_CLEANUP_MS = 3600_000;

/**
 * The tasks service's sweeps, one after another every second: tasks past their deadline, text streams whose
 * lease lapsed (their process ended), outputs and prompts past retention (each minute) and old idempotency
 * records (each hour). Started and stopped by `TaskBackgroundWork`.
 */
@Injectable()
export class TaskSweeper {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> = Promise.resolve();
  private lastCleanup = 0;
  private lastPurge = 0;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly tasks: TaskRepository,
    private readonly expiry: ExpireTasksUseCase,
    private readonly interruption: InterruptStreamsUseCase,
    private readonly retention: PurgeTaskUseCase,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.sweeping = this.sweeping.then(() => this.sweep());
    }, EXPIRY_SWEEP_MS);
  }

  /** No new sweep starts; the one under way finishes. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
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
      if (now - this.lastCleanup > IDEMPOTENCY_CLEANUP_MS) {
        this.lastCleanup = now;
        await this.tasks.deleteIdempotencyBefore(new Date(now - IDEMPOTENCY_WINDOW_MS));
      }
    } catch (error) {
      // The database is briefly unreachable: the next sweep tries again.
      this.logger?.warn({ err: error }, 'task sweep failed; trying again in a second');
    }
  }
}
