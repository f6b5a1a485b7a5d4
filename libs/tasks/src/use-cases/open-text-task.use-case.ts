import { Inject, Injectable } from '@nestjs/common';
import {
  CHAT_EXECUTION,
  type ChatEvent,
  type ChatExecutionPort,
  type OpenTextTaskCommand,
  type OpenedTextTask,
  type TextTasksPort,
} from '@gen/contracts';
import { formatUsd } from '@gen/core';
import { CreateTaskUseCase } from './create-task.use-case';

/**
 * Opens a text task for a stream (TEXT_TASKS): createTask's validation, quote, Idempotency-Key and hold, for
 * text models only, then the task runs in this process through CHAT_EXECUTION as the caller reads `events`.
 * The run is not tied to the caller's connection: it stops only with this process.
 */
@Injectable()
export class OpenTextTaskUseCase implements TextTasksPort {
  constructor(
    private readonly createTask: CreateTaskUseCase,
    @Inject(CHAT_EXECUTION) private readonly chat: ChatExecutionPort,
  ) {}

  async open(command: OpenTextTaskCommand): Promise<OpenedTextTask> {
    const accepted = await this.createTask.execute({
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
    const { task, created } = accepted;
    const base = { taskId: task.id, model: task.model, estimatedCost: formatUsd(task.estimatedE9) };
    if (accepted.replayed || !created) return { ...base, events: null };
    const events: AsyncIterable<ChatEvent> = this.chat.run(
      created.payload,
      { causationId: created.id, correlationId: created.correlationId },
      // Not the caller's connection: a disconnect stops reception only (spec).
      new AbortController().signal,
    );
    return { ...base, events };
  }
}
