import { Inject, Injectable } from '@nestjs/common';
import {
  BusinessCode,
  CATALOG_PORT,
  CHAT_EXECUTION,
  TEXT_TASK_INTAKE,
  type CatalogPort,
  type ChatEvent,
  type ChatExecutionPort,
  type EarlyChat,
  type OpenTextTaskCommand,
  type OpenedTextTask,
  type TextTaskIntakePort,
  type TextTasksPort,
} from '@gen/contracts';
import { DomainError } from '@gen/core';

/** How many accounts the early-start memory keeps (it is forgotten whole beyond that, and relearned). */
const FUNDED_ACCOUNTS_KEPT = 10_000;

/**
 * Opens a text task for a stream (TEXT_TASKS): the tasks domain accepts it (TEXT_TASK_INTAKE: createTask's
 * validation, quote, Idempotency-Key and hold, for text models only; in this process, or in the tasks app over
 * the service transport), then the task runs in this process through CHAT_EXECUTION as the caller reads
 * `events`. The run is not tied to the caller's connection: it stops only with this process.
 *
 * The model is called as soon as the request is valid (checked here against the catalog), beside the
 * acceptance rather than after it, so the hold adds nothing to the time to first token when the model is slower
 * than the database. Nothing reaches the client before the task is accepted; a refusal or a replay aborts that
 * call, which nobody is charged for. Only an account whose last acceptance in this process held funds gets the
 * early call: one that ran out costs the upstream at most one aborted call.
 */
@Injectable()
export class OpenTextTaskUseCase implements TextTasksPort {
  /** Accounts whose last acceptance here held funds (true) or was refused for funds (false). */
  private readonly funded = new Map<string, boolean>();

  constructor(
    @Inject(TEXT_TASK_INTAKE) private readonly intake: TextTaskIntakePort,
    @Inject(CATALOG_PORT) private readonly catalog: CatalogPort,
    @Inject(CHAT_EXECUTION) private readonly chat: ChatExecutionPort,
  ) {}

  async open(command: OpenTextTaskCommand): Promise<OpenedTextTask> {
    const { accountId } = command.principal;
    const early = this.funded.get(accountId) === true ? this.startEarly(command) : undefined;
    let accepted;
    try {
      accepted = await this.intake.accept(command);
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
    const base = { taskId: accepted.taskId, model: accepted.model, estimatedCost: accepted.estimatedCost };
    if (!accepted.run) {
      early?.abort();
      return { ...base, events: null };
    }
    this.remember(accountId, true);
    const events: AsyncIterable<ChatEvent> = this.chat.run(
      accepted.run.payload,
      accepted.run.cause,
      // Not the caller's connection: a disconnect stops reception only (spec).
      new AbortController().signal,
      // An early call of another model than the one accepted is not the task's: `run` ignores it.
      early,
    );
    return { ...base, events };
  }

  /** The model call of a request the catalog takes (a text model, a valid input); none for any other. */
  private startEarly(command: OpenTextTaskCommand): EarlyChat | undefined {
    let prepared;
    try {
      prepared = this.catalog.prepareTask(command.model, command.input, command.principal.priceMultiplier);
    } catch {
      // The acceptance refuses it, with the error in full.
      return undefined;
    }
    return prepared.modality === 'text' ? this.chat.start(prepared.model, prepared.input) : undefined;
  }

  private remember(accountId: string, funded: boolean): void {
    if (this.funded.get(accountId) === funded) return;
    if (this.funded.size >= FUNDED_ACCOUNTS_KEPT) this.funded.clear();
    this.funded.set(accountId, funded);
  }
}
