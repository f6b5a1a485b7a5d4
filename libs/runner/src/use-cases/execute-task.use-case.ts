import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  BusinessCode,
  ExecutionEventType,
  MEDIA_INPUTS,
  MODEL_ROUTES,
  MediaInputError,
  PROVIDER_PORT,
  ProviderFailure,
  type ExecutionAsset,
  type ExecutionUsage,
  type MediaField,
  type MediaInputsPort,
  type MediaResult,
  type ModelRoutesPort,
  type ProviderPort,
  type ResolvedMedia,
  type TaskCreatedPayload,
  type EventPayload,
  type ExecutionEventName,
  taskOutputPrefix,
} from '@gen/contracts';
import { CLOCK, DomainError, LOGGER, type Clock, type Logger } from '@gen/core';
import { EVENT_BUS, type EventBus } from '@gen/messaging';
import { reportExecution } from './execution-report';
import { measuredUsage, probeMedia, type MediaFacts } from '@gen/providers';
import { RunChatUseCase } from './run-chat.use-case';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'video/x-msvideo': 'avi',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
};

/** Outputs are stored under keys made from the task id: immutable, and the same when a task is run again. */
export function outputKey(taskId: string, index: number, contentType: string): string {
  return `${taskOutputPrefix(taskId)}${index}.${EXTENSIONS[contentType] ?? 'bin'}`;
}

/** Thrown when the runner stops while a task runs: the task is not reported, and is given back. */
export class ExecutionAborted extends Error {}

/**
 * Thrown when the media inputs of a task cannot be read now because the media app does not answer (503
 * 50301 from MEDIA_INPUTS): an outage, not the task's fault. The task is not failed: it is left to its lease,
 * which lapses, and runs again (by this runner or another) once the media app is back.
 */
export class MediaInputsUnavailable extends Error {
  constructor(
    readonly field: string,
    cause: DomainError,
  ) {
    super(`the media input ${field} cannot be read now: ${cause.message}`, { cause });
    this.name = 'MediaInputsUnavailable';
  }
}

/** Every report names the task.created event (cause) and the request that created the task (correlation). */
export interface ReportCause {
  readonly causationId: string;
  readonly correlationId: string;
}

/** What a run reported. `late`: nothing, the deadline passed before it ended (the tasks service expires it). */
export type ExecutionOutcome = 'succeeded' | 'failed' | 'late';

/** A generated file with what its bytes measure. */
interface MeasuredFile {
  readonly bytes: Buffer;
  readonly facts: MediaFacts;
}

/**
 * Runs one created task through the provider port and reports it on task.execution: started, then succeeded
 * or failed (`errorCode`). Outputs are measured from their bytes (type, size, dimensions, duration: never what
 * the upstream claims) and stored before success is reported; usage is what the stored files measure. A task
 * past its deadline is not started, and one whose deadline passes while it runs is not reported: the tasks
 * service expires it.
 */
@Injectable()
export class ExecuteTaskUseCase {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PROVIDER_PORT) private readonly provider: ProviderPort,
    @Inject(MODEL_ROUTES) private readonly routes: ModelRoutesPort,
    private readonly chat: RunChatUseCase,
    @Inject(MEDIA_INPUTS) private readonly mediaInputs: MediaInputsPort,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null = null,
  ) {}

  /** Runs the task and reports it. `signal` aborts when the runner stops: the task is then given back. */
  async execute(
    task: TaskCreatedPayload,
    cause: ReportCause,
    signal: AbortSignal,
  ): Promise<ExecutionOutcome> {
    const left = Date.parse(task.deadlineAt) - this.clock.now().getTime();
    if (left <= 0) return 'late';
    const deadline = AbortSignal.timeout(left);
    const route = this.routes.routeFor(task.model);
    if (route?.modality === 'text') {
      // Reported by RunChatUseCase, from its start.
      return this.answer(task, cause, signal, AbortSignal.any([signal, deadline]), deadline);
    }
    await this.report(task, cause, ExecutionEventType.started, {
      taskId: task.taskId,
      startedAt: this.clock.now().toISOString(),
    });
    let result: MediaResult;
    try {
      const running = AbortSignal.any([signal, deadline]);
      const media = await this.readMedia(task, route?.mediaFields ?? [], running);
      if (media instanceof MediaInputError) return this.fail(task, cause, media.errorCode);
      result = await this.provider.generate(
        {
          taskId: task.taskId,
          model: task.model,
          input: task.input,
          deadlineAt: task.deadlineAt,
          ...(Object.keys(media).length ? { media } : {}),
        },
        running,
      );
    } catch (error) {
      if (signal.aborted) throw new ExecutionAborted();
      if (deadline.aborted) return 'late';
      if (error instanceof MediaInputsUnavailable) throw error;
      this.logger?.error({ taskId: task.taskId, model: task.model, err: error }, 'task generation broke');
      return this.fail(task, cause, 'internal_error');
    }
    if (result.status === 'failed') return this.fail(task, cause, result.errorCode);
    const measured: MeasuredFile[] = [];
    for (const file of result.files) {
      const facts = probeMedia(file.bytes);
      if (!facts) {
        this.logger?.warn(
          { taskId: task.taskId, model: task.model, claimedType: file.claimedType, bytes: file.bytes.length },
          'the upstream sent an output that is not a media file this service knows',
        );
        return this.fail(task, cause, 'upstream_failed');
      }
      measured.push({ bytes: file.bytes, facts });
    }
    const { assets, usage } = await this.store(task.taskId, measured, result.assets);
    await this.report(task, cause, ExecutionEventType.succeeded, {
      taskId: task.taskId,
      assets,
      usage,
      finishedAt: this.clock.now().toISOString(),
    });
    return 'succeeded';
  }

  /**
   * The media fields the input fills, read to their bytes (MEDIA_INPUTS: the task's account's own
   * `service://` files, https URLs through the SSRF guard), before the model runs; or the MediaInputError
   * that fails the task (never charged).
   */
  private async readMedia(
    task: TaskCreatedPayload,
    fields: readonly MediaField[],
    signal: AbortSignal,
  ): Promise<Record<string, ResolvedMedia> | MediaInputError> {
    const media: Record<string, ResolvedMedia> = {};
    for (const { field, kind } of fields) {
      const value = task.input[field];
      if (typeof value !== 'string') continue;
      try {
        media[field] = await this.mediaInputs.resolve(task.accountId, value, kind, signal);
      } catch (error) {
        if (error instanceof DomainError && error.code === BusinessCode.TemporarilyUnavailable) {
          throw new MediaInputsUnavailable(field, error);
        }
        if (!(error instanceof MediaInputError)) throw error;
        // The detail names no URL query and no token; the client sees the errorCode only.
        this.logger?.warn(
          { taskId: task.taskId, model: task.model, field, errorCode: error.errorCode, detail: error.detail },
          'a media input of the task could not be used',
        );
        return error;
      }
    }
    return media;
  }

  /**
   * A text task: the model's whole answer, run (and reported) by RunChatUseCase and drained here. A failure
   * was reported as it happened.
   */
  private async answer(
    task: TaskCreatedPayload,
    cause: ReportCause,
    stopping: AbortSignal,
    signal: AbortSignal,
    deadline: AbortSignal,
  ): Promise<ExecutionOutcome> {
    try {
      for await (const _event of this.chat.run(task, cause, signal));
      return 'succeeded';
    } catch (error) {
      if (stopping.aborted) throw new ExecutionAborted();
      if (deadline.aborted) return 'late';
      if (error instanceof ProviderFailure) return 'failed';
      throw error;
    }
  }

  /** Stores each file (unless the model's result is `unavailable`); usage counts only the stored files. */
  private async store(
    taskId: string,
    files: readonly MeasuredFile[],
    state: 'ready' | 'pending' | 'unavailable',
  ): Promise<{ assets: ExecutionAsset[]; usage: ExecutionUsage }> {
    const stored: MediaFacts[] = [];
    const assets: ExecutionAsset[] = [];
    for (const [index, { bytes, facts }] of files.entries()) {
      const key = outputKey(taskId, index, facts.mime);
      const described = {
        key,
        mime: facts.mime,
        ...(facts.width !== undefined ? { width: facts.width } : {}),
        ...(facts.height !== undefined ? { height: facts.height } : {}),
        ...(facts.durationSeconds !== undefined ? { durationSeconds: facts.durationSeconds } : {}),
      };
      if (state === 'unavailable') {
        assets.push({ ...described, status: 'unavailable' });
        continue;
      }
      try {
        await this.storage.put(key, bytes, facts.mime);
      } catch (error) {
        // The file could not be stored: the asset is unavailable and not charged.
        this.logger?.warn({ taskId, key, err: error }, 'an output could not be stored');
        assets.push({ ...described, status: 'unavailable' });
        continue;
      }
      stored.push(facts);
      assets.push({ ...described, bytes: bytes.length, status: state });
    }
    return { assets, usage: measuredUsage(stored) };
  }

  private async fail(task: TaskCreatedPayload, cause: ReportCause, errorCode: string): Promise<'failed'> {
    await this.report(task, cause, ExecutionEventType.failed, {
      taskId: task.taskId,
      errorCode,
      finishedAt: this.clock.now().toISOString(),
    });
    return 'failed';
  }

  private report<T extends ExecutionEventName>(
    task: TaskCreatedPayload,
    cause: ReportCause,
    type: T,
    payload: EventPayload<T>,
  ): Promise<void> {
    return reportExecution(this.bus, task, cause, type, payload, this.clock.now());
  }
}
