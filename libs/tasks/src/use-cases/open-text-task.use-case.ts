import { Inject, Injectable } from '@nestjs/common';
import {
  BusinessCode,
  CHAT_EXECUTION,
  type ChatEvent,
  type ChatExecutionPort,
  type EarlyChat,
  type OpenTextTaskCommand,
  type OpenedTextTask,
  type TextTasksPort,
} from '@gen/contracts';
import { DomainError, formatUsd } from '@gen/core';
import { CreateTaskUseCase } from './create-task.use-case';

/** How many accounts the early-start memory keeps (it is forgotten whole beyond that, and relearned). */
const FUNDED_ACCOUNTS_KEPT = 10_000;

/**
 * Opens a text task for a stream (TEXT_TASKS): createTask's validation, quote, Idempotency-Key and hold, for
 * text models only, then the task runs in this process through CHAT_EXECUTION as the caller reads `events`.
 * The run is not tied to the caller's connection: it stops only with this process.
 *
 * The model is called as soon as the request is valid, beside the acceptance (Idempotency-Key, hold, task row)
 * rather than after it, so the hold adds nothing to the time to first token when the model is slower than the
 * database. Nothing reaches the client before the task is accepted; a refusal or a replay aborts that call,
 * which nobody is charged for. Only an account whose last acceptance in this process held funds gets the
 * early call: one that ran out costs the upstream at most one aborted call.
 */
@Injectable()
export class OpenTextTaskUseCase implements TextTasksPort {
  /** Accounts whose last acceptance here held funds (true) or was refused for funds (false). */
  private readonly funded = new Map<string, boolean>();

  constructor(
    private readonly createTask: CreateTaskUseCase,
    @Inject(CHAT_EXECUTION) private readonly chat: ChatExecutionPort,
  ) {}

  async open(command: OpenTextTaskCommand): Promise<OpenedTextTask> {
    const { accountId } = command.principal;
    let early: EarlyChat | undefined;
    let accepted;
    try {
      accepted = await this.createTask.execute({
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
        ...(this.funded.get(accountId) === true
          ? {
              onValid: (valid) => {
                early = this.chat.start(valid.model, valid.input);
              },
            }
          : {}),
      });
    } catch (error) {
      early?.abort();
      if (
        error instanceof DomainError &&
        (error.code === BusinessCode.InsufficientBalance || error.code === BusinessCode.SpendCapReached)
      ) {
        this.remember(accountId, false);
      }
      throw error;
    }
    const { task, created } = accepted;
    const base = { taskId: task.id, model: task.model, estimatedCost: formatUsd(task.estimatedE9) };
    if (accepted.replayed || !created) {
      early?.abort();
      return { ...base, events: null };
    }
    this.remember(accountId, true);
    const events: AsyncIterable<ChatEvent> = this.chat.run(
      created.payload,
      { causationId: created.id, correlationId: created.correlationId },
      // Not the caller's connection: a disconnect stops reception only (spec).
      new AbortController().signal,
      early,
    );
    return { ...base, events };
  }

  private remember(accountId: string, funded: boolean): void {
    if (this.funded.get(accountId) === funded) return;
    if (this.funded.size >= FUNDED_ACCOUNTS_KEPT) this.funded.clear();
    this.funded.set(accountId, funded);
  }
}
