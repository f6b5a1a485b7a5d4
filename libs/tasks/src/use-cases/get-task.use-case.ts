import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { CLOCK, DomainError, type Clock, type Language } from '@gen/core';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import type { TaskScope } from '../domain/task-scope';
import { TaskRepository } from '../persistence/task.repository';
import { taskRecordOf, type TaskRecordView } from '../mappers/task-record';

/**
 * GET /api/v1/jobs/recordInfo: the task record for the key that created it (GET /console/v1/tasks/{id}: for
 * any key of the account). Unknown ids, another account's tasks and another key's tasks are the same 404.
 */
@Injectable()
export class GetTaskUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(scope: TaskScope, taskId: string, language: Language): Promise<TaskRecordView> {
    const task = await this.tasks.findVisible(taskId, scope.accountId, scope.keyId);
    if (!task) throw new DomainError(BusinessCode.NotFound, 'task.not_found');
    return taskRecordOf(task, { language, storage: this.storage, now: this.clock.now() });
  }
}
