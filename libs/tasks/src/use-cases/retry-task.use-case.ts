import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, type ApiKeyPrincipal } from '@gen/contracts';
import { CLOCK, DomainError, type Clock } from '@gen/core';
import { RETRYABLE_STATES } from '../domain/task-state';
import type { TaskRow } from '../persistence/task-row';
import { TaskRepository } from '../persistence/task.repository';
import { CreateTaskUseCase, type AcceptedTask } from './create-task.use-case';
import { isPurgedAt } from '../domain/task-retention';

export interface RetryTaskCommand {
  readonly principal: ApiKeyPrincipal;
  readonly taskId: string;
  readonly idempotencyKey?: string;
  readonly requestId: string;
}

/**
 * POST /api/v1/jobs/retry: a new, separately billed task from a failed, expired or historical canceled task
 * of the same key. The source is unchanged; everything is checked again as for createTask (schema, price,
 * availability, balance, callback URL). Unknown, other-account and other-key sources are the same 404.
 */
@Injectable()
export class RetryTaskUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly create: CreateTaskUseCase,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: RetryTaskCommand): Promise<AcceptedTask> {
    const { principal } = command;
    const source = await this.tasks.findVisible(command.taskId, principal.accountId, principal.keyId);
    if (!source) throw new DomainError(BusinessCode.NotFound, 'task.not_found');
    if (!RETRYABLE_STATES.includes(source.state)) {
      throw new DomainError(BusinessCode.Conflict, 'task.not_retryable');
    }
    // A purged task has no prompt left to run again: purged by the caller, or past its retention (its
    // record already shows it purged, even before the sweeper has deleted the prompt).
    const input = this.promptOf(source);
    if (input === null) throw new DomainError(BusinessCode.Conflict, 'task.purged_not_retryable');
    return this.create.execute({
      principal,
      request: {
        model: source.model,
        input,
        ...(source.callbackUrl ? { callBackUrl: source.callbackUrl } : {}),
      },
      idempotencyKey: command.idempotencyKey,
      // The source's retention (X-Service-Retention) applies to its prompt, which the retry carries on.
      retention: String(source.retentionSeconds),
      requestId: command.requestId,
      sourceTaskId: source.id,
    });
  }

  private promptOf(task: TaskRow): Record<string, unknown> | null {
    return isPurgedAt(task, this.clock.now()) ? null : task.input;
  }
}
