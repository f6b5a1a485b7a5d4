import { Injectable } from '@nestjs/common';
import type { AcceptedTextTask, OpenTextTaskCommand, StreamLease, TextTaskIntakePort } from '@gen/contracts';
import { formatUsd } from '@gen/core';
import { TaskRepository } from '../persistence/task.repository';
import { CreateTaskUseCase } from './create-task.use-case';

/**
 * TEXT_TASK_INTAKE: accepts a text task for a stream (createTask with `stream`), in the app that owns the
 * tasks; the stream runs where the client is (OpenTextTaskUseCase), in this process or another, which holds the
 * task's stream lease (written with the task) and renews it here while it streams.
 */
@Injectable()
export class TextTaskIntakeUseCase implements TextTaskIntakePort {
  constructor(
    private readonly createTask: CreateTaskUseCase,
    private readonly tasks: TaskRepository,
  ) {}

  renew(owner: string, taskIds: readonly string[], leaseMs: number): Promise<string[]> {
    return this.tasks.renewStreamLeases(owner, taskIds, leaseLength(leaseMs));
  }

  async accept(command: OpenTextTaskCommand, lease?: StreamLease): Promise<AcceptedTextTask> {
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
      ...(lease ? { lease: { owner: lease.owner, leaseMs: leaseLength(lease.leaseMs) } } : {}),
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

/** A lease length as TEXT_STREAM_LEASE_MS allows it (it may come over the service transport). */
function leaseLength(ms: number): number {
  return Number.isFinite(ms) ? Math.min(600_000, Math.max(1000, Math.round(ms))) : 10_000;
}
