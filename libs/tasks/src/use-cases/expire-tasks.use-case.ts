import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, LOGGER, type Clock, type Logger } from '@gen/core';
import { IN_FLIGHT_STATES } from '../domain/task-state';
import { TaskRepository } from '../persistence/task.repository';
import { terminalEvents } from './apply-execution.use-case';

/**
 * Moves in-flight tasks past `deadlineAt` to `expired` (cost 0: billing releases the hold on task.expired).
 * A result that arrives later is ignored, because the task is terminal.
 */
@Injectable()
export class ExpireTasksUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null = null,
  ) {}

  /** Expires up to `limit` due tasks; returns how many it expired. */
  async execute(limit = 500): Promise<number> {
    const now = this.clock.now();
    let expired = 0;
    for (const task of await this.tasks.dueForExpiry(now, limit)) {
      const change = { state: 'expired', completedAt: now, costE9: 0n } as const;
      const done = await this.tasks.transition(
        task.id,
        IN_FLIGHT_STATES,
        change,
        terminalEvents({ ...task, ...change }, `deadline:${task.id}`, '0'),
      );
      if (!done) continue;
      expired += 1;
      this.logger?.info({ taskId: task.id, request_id: task.requestId }, 'task expired');
    }
    return expired;
  }
}
