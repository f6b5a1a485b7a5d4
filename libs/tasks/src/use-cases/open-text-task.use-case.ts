import {
  Inject,
  Injectable,
  Optional,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
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
import {
  APP_CONFIG,
  DomainError,
  LOGGER,
  SHUTDOWN_DRAIN,
  type AppConfig,
  type Logger,
  type ShutdownDrain,
} from '@gen/core';
import { LRUCache } from 'lru-cache';
import { StreamLeases } from './stream-leases';

/** How many accounts the early-start memory keeps (the least recently used leaving first, relearned later). */
const FUNDED_ACCOUNTS_KEPT = 10_000;
/** A module that closes without a drain first (a test's app): how long its open answers get to report, cut. */
const CLOSE_REPORT_MS = 2000;

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
 *
 * The task is accepted with a stream lease of this process, renewed while its answer runs (StreamLeases): if
 * this process dies, the tasks service ends the task once the lease lapses (failed, `service_interrupted`, hold
 * released). On SIGTERM the answers run on to their end and are reported before the process closes; those
 * still running near the end of SHUTDOWN_GRACE_MS are cut and charged by what they delivered.
 */
@Injectable()
export class OpenTextTaskUseCase implements TextTasksPort, OnApplicationBootstrap, OnModuleDestroy {
  /** Accounts whose last acceptance here held funds (true) or was refused for funds (false). */
  private readonly funded = new LRUCache<string, boolean>({ max: FUNDED_ACCOUNTS_KEPT });
  /** The stream leases of the answers this process streams; drained on SIGTERM. */
  readonly leases: StreamLeases;
  private removeDrain: (() => void) | undefined;

  constructor(
    @Inject(TEXT_TASK_INTAKE) private readonly intake: TextTaskIntakePort,
    @Inject(CATALOG_PORT) private readonly catalog: CatalogPort,
    @Inject(CHAT_EXECUTION) private readonly chat: ChatExecutionPort,
    @Optional() @Inject(APP_CONFIG) config: AppConfig | null = null,
    @Optional() @Inject(SHUTDOWN_DRAIN) private readonly shutdown: ShutdownDrain | null = null,
    @Optional() @Inject(LOGGER) logger: Logger | null = null,
  ) {
    this.leases = new StreamLeases(intake, config?.TEXT_STREAM_LEASE_MS ?? 10_000, logger);
  }

  onApplicationBootstrap(): void {
    this.leases.start();
    this.removeDrain = this.shutdown?.add(this.leases);
  }

  /** Answers still open (no SIGTERM drained them): cut now, and given a moment to report. */
  async onModuleDestroy(): Promise<void> {
    const now = Date.now();
    await this.leases.drain(now, now + CLOSE_REPORT_MS);
    this.leases.stop();
    this.removeDrain?.();
  }

  async open(command: OpenTextTaskCommand): Promise<OpenedTextTask> {
    const { accountId } = command.principal;
    const early = this.funded.get(accountId) === true ? this.startEarly(command) : undefined;
    let accepted;
    try {
      accepted = await this.intake.accept(command, this.leases.lease);
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
    const { payload, cause } = accepted.run;
    // This process holds the task's lease while the answer runs, and gives it up once it is reported.
    const events: AsyncIterable<ChatEvent> = this.leases.hold(accepted.taskId, (control) =>
      this.chat.run(
        payload,
        cause,
        // Not the caller's connection: a disconnect stops reception only (spec).
        new AbortController().signal,
        // An early call of another model than the one accepted is not the task's: `run` ignores it.
        early,
        // The process stopping cuts the answer (SIGTERM, at the end of the grace).
        control,
      ),
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
    this.funded.set(accountId, funded);
  }
}
