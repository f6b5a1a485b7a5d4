import { Injectable } from '@nestjs/common';
import type { ApiKeyPrincipal, CompatTasksPort, OpenTextTaskCommand, TaskView } from '@gen/contracts';
import { isSupportedLanguage } from '@gen/core';
import { CreateTaskUseCase } from './create-task.use-case';
import { GetTaskUseCase } from './get-task.use-case';

/** createTask and recordInfo for the compatibility endpoints that make tasks (`/v1/videos`): COMPAT_TASKS. */
@Injectable()
export class CompatTasksUseCase implements CompatTasksPort {
  constructor(
    private readonly createTask: CreateTaskUseCase,
    private readonly getTask: GetTaskUseCase,
  ) {}

  async create(
    command: Omit<OpenTextTaskCommand, 'quoteId' | 'expectedCost' | 'callBackUrl'>,
  ): Promise<TaskView> {
    const { task } = await this.createTask.execute({
      principal: command.principal,
      request: { model: command.model, input: command.input },
      ...(command.idempotencyKey !== undefined ? { idempotencyKey: command.idempotencyKey } : {}),
      ...(command.retention !== undefined ? { retention: command.retention } : {}),
      requestId: command.requestId,
    });
    return this.get(command.principal, task.id, 'en');
  }

  get(principal: ApiKeyPrincipal, taskId: string, language: string): Promise<TaskView> {
    return this.getTask.execute(principal, taskId, isSupportedLanguage(language) ? language : 'en');
  }
}
