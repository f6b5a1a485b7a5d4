import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, isTaskOutputKey, type ApiKeyPrincipal } from '@gen/contracts';
import { CLOCK, DomainError, type Clock } from '@gen/core';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { isTerminal } from '../domain/task-state';
import type { TaskRow } from '../persistence/task-row';
import { TaskRepository } from '../persistence/task.repository';

export interface PurgeResult {
  readonly taskId: string;
  readonly purged: true;
  readonly purgedAt: string;
}

/**
 * POST /api/v1/jobs/purge: destroys the outputs and the prompt of a terminal task of this key. The billing
 * record (cost, settled) stays. Purging again answers the same. The retention sweeper purges the same way.
 */
@Injectable()
export class PurgeTaskUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(principal: ApiKeyPrincipal, taskId: string): Promise<PurgeResult> {
    const task = await this.tasks.findVisible(taskId, principal.accountId, principal.keyId);
    if (!task) throw new DomainError(BusinessCode.NotFound, 'task.not_found');
    if (!isTerminal(task.state)) throw new DomainError(BusinessCode.Conflict, 'task.not_terminal');
    const purged = await this.purge(task);
    return { taskId: purged.id, purged: true, purgedAt: purged.purgedAt!.toISOString() };
  }

  /**
   * Deletes the stored files first, then the prompt: an interrupted purge is simply done again. Only the
   * task's own output objects are deleted (keys under its output prefix): files of the account that the task
   * used as input, or that the asset library keeps, live under other keys and are never touched.
   */
  async purge(task: TaskRow): Promise<TaskRow> {
    for (const asset of task.assets ?? []) {
      if (asset.status !== 'unavailable' && isTaskOutputKey(task.id, asset.key)) {
        await this.storage.delete(asset.key);
      }
    }
    return (await this.tasks.markPurged(task.id, this.clock.now())) ?? task;
  }

  /** The retention sweeper: purges up to `limit` tasks whose retention ended. */
  async purgeExpired(limit = 100): Promise<number> {
    const due = await this.tasks.dueForPurge(this.clock.now(), limit);
    for (const task of due) await this.purge(task);
    return due.length;
  }
}
