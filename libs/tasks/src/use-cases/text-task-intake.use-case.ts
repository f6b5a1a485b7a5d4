import { Injectable } from '@nestjs/common';
import type { AcceptedTextTask, OpenTextTaskCommand, TextTaskIntakePort } from '@gen/contracts';
import { formatUsd } from '@gen/core';
import { CreateTaskUseCase } from './create-task.use-case';

/**
 * TEXT_TASK_INTAKE: accepts a text task for a stream (createTask with `stream`), in the app that owns the
 * tasks; the stream runs where the client is (OpenTextTaskUseCase), in this process or another.
 */
@Injectable()
export class TextTaskIntakeUseCase implements TextTaskIntakePort {
  constructor(private readonly createTask: CreateTaskUseCase) {}

  async accept(command: OpenTextTaskCommand): Promise<AcceptedTextTask> {
    const { task, created, replayed } = await this.createTask.execute({
      principal: command.principal,
      request: {
        model: command.model,
        input: command.input,
        ...(command.quoteId !== undefined ? { quoteId: command.quoteId } : {}),
        ...(command.expectedCost !== undefined ? { expectedCost: command.expectedCost } : {}),
        ...(command.callBackUrl !== undefined ? { callBackUrl: command.callBackUrl } : {}),
      },
      ...(command.idempotencyKey !== undefined ? { idempotencyKey: command.idempotencyKey } : {}),
      ...(command.retention !== undefined ? { retention: command.retention } : {}),
      requestId: command.requestId,
      stream: true,
    });
    return {
      taskId: task.id,
      model: task.model,
      estimatedCost: formatUsd(task.estimatedE9),
      run:
        replayed || !created
          ? null
          : {
              payload: created.payload,
              cause: { causationId: created.id, correlationId: created.correlationId },
            },
    };
  }
}
