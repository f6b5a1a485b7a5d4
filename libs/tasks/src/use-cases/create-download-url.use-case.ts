import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, type ApiKeyPrincipal } from '@gen/contracts';
import { CLOCK, DomainError, type Clock } from '@gen/core';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { downloadableOutput } from '../domain/task-output';
import { TaskRepository } from '../persistence/task.repository';

export interface DownloadUrlCommand {
  readonly taskId: string;
  /** The storage key of one output; empty or absent selects the first output. */
  readonly key?: string;
}

export interface DownloadUrl {
  readonly url: string;
  readonly expiresAt: string;
  readonly key: string;
}

/**
 * POST /api/v1/common/download-url: a short-lived signed GET URL of one output of a task of this key. Unknown
 * tasks, tasks of another key and of another account are the same 404; see downloadableOutput for which
 * output is signed and the refusals. Reads only: a refusal changes nothing.
 */
@Injectable()
export class CreateDownloadUrlUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(principal: ApiKeyPrincipal, command: DownloadUrlCommand): Promise<DownloadUrl> {
    const task = await this.tasks.findVisible(command.taskId, principal.accountId, principal.keyId);
    if (!task) throw new DomainError(BusinessCode.NotFound, 'task.not_found');
    const { asset, expiresInSeconds } = downloadableOutput(task, command.key, this.clock.now());
    const signed = await this.storage.presignGet({ key: asset.key, expiresInSeconds });
    return { url: signed.url, expiresAt: signed.expiresAt.toISOString(), key: asset.key };
  }
}
