import {
  ExecutionEventType,
  IdPrefix,
  Topics,
  type EventEnvelope,
  type ExecutionAsset,
  type TaskCreatedPayload,
} from '@gen/contracts';
import { newId, type Clock } from '@gen/core';
import type { EventBus } from '@gen/messaging';
import {
  isOfflineMediaModel,
  measuredUsage,
  OfflineMediaProvider,
  type MediaOutput,
  type OfflineInputs,
  type Sleep,
} from '@gen/providers';
import type { ObjectStorage } from '@gen/storage';

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'audio/wav': 'wav',
  'video/x-msvideo': 'avi',
};

/** Outputs are stored under keys made from the task id: immutable, and the same when a task is run again. */
export function outputKey(taskId: string, index: number, contentType: string): string {
  return `outputs/${taskId}/${index}.${EXTENSIONS[contentType] ?? 'bin'}`;
}

/** Thrown when the runner stops while a task waits: the task is not reported, and is given back. */
export class ExecutionAborted extends Error {}

/** Every report names the task.created event (cause) and the request that created the task (correlation). */
export interface ReportCause {
  readonly causationId: string;
  readonly correlationId: string;
}

/** What a run reported. */
export type ExecutionOutcome = 'succeeded' | 'failed' | 'late';

/**
 * Runs one created task through the provider port and reports it on task.execution: started, then succeeded
 * (assets stored, usage measured) or failed (`errorCode`). A task already past its deadline is not started:
 * the tasks service expires it.
 */
export class ExecuteTask {
  private readonly provider: OfflineMediaProvider;

  constructor(
    private readonly bus: EventBus,
    private readonly storage: ObjectStorage,
    private readonly clock: Clock,
    sleep: Sleep,
  ) {
    this.provider = new OfflineMediaProvider(sleep);
  }

  /** Runs the task and reports it; resolves with what was reported (`late`: nothing, the deadline passed). */
  async execute(task: TaskCreatedPayload, cause: ReportCause): Promise<ExecutionOutcome> {
    if (this.clock.now().getTime() >= Date.parse(task.deadlineAt)) return 'late';
    await this.report(task, cause, ExecutionEventType.started, {
      taskId: task.taskId,
      startedAt: this.clock.now().toISOString(),
    });
    if (!isOfflineMediaModel(task.model)) return this.fail(task, cause, 'internal_error');
    let generation;
    try {
      generation = await this.provider.generate(
        task.model,
        task.input as unknown as OfflineInputs[typeof task.model],
      );
    } catch (error) {
      if (error instanceof ExecutionAborted) throw error;
      return this.fail(task, cause, 'internal_error');
    }
    if (generation.status === 'failed') return this.fail(task, cause, generation.errorCode);
    const stored: MediaOutput[] = [];
    const assets: ExecutionAsset[] = [];
    for (const [index, output] of generation.outputs.entries()) {
      const key = outputKey(task.taskId, index, output.contentType);
      const facts = {
        key,
        mime: output.contentType,
        ...(output.width !== undefined ? { width: output.width } : {}),
        ...(output.height !== undefined ? { height: output.height } : {}),
        ...(output.durationSeconds !== undefined ? { durationSeconds: output.durationSeconds } : {}),
      };
      if (generation.assets === 'unavailable') {
        assets.push({ ...facts, status: 'unavailable' });
        continue;
      }
      try {
        await this.storage.put(key, output.bytes, output.contentType);
      } catch {
        // The file could not be stored: the asset is unavailable and not charged.
        assets.push({ ...facts, status: 'unavailable' });
        continue;
      }
      stored.push(output);
      assets.push({ ...facts, bytes: output.bytes.length, status: generation.assets });
    }
    await this.report(task, cause, ExecutionEventType.succeeded, {
      taskId: task.taskId,
      assets,
      usage: measuredUsage(stored),
      finishedAt: this.clock.now().toISOString(),
    });
    return 'succeeded';
  }

  private async fail(task: TaskCreatedPayload, cause: ReportCause, errorCode: string): Promise<'failed'> {
    await this.report(task, cause, ExecutionEventType.failed, {
      taskId: task.taskId,
      errorCode,
      finishedAt: this.clock.now().toISOString(),
    });
    return 'failed';
  }

  private report(
    task: TaskCreatedPayload,
    cause: ReportCause,
    type: string,
    payload: unknown,
  ): Promise<void> {
    const event: EventEnvelope = {
      id: newId(IdPrefix.event),
      type,
      version: 1,
      key: task.taskId,
      occurredAt: this.clock.now().toISOString(),
      correlationId: cause.correlationId,
      causationId: cause.causationId,
      payload,
    };
    return this.bus.publish(Topics.taskExecution, [event]);
  }
}
