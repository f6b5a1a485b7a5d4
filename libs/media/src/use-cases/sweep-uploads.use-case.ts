import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, LOGGER, type Clock, type Logger } from '@gen/core';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { objectKeyOf } from '../domain/file-keys';
import { FileRepository } from '../persistence/file.repository';

const BATCH = 100;

/**
 * Retention of uploads: once a file's commit window has closed (its upload URL expired an hour ago), whatever
 * is still at its temporary key is deleted, and so is the file unless it was committed (with its bytes, if a
 * commit that died had moved them to the private key already). A file never uploaded,
 * never committed, or refused disappears; a ready file loses only its temporary key (a second upload to the URL
 * before it expired). Returns how many files were swept.
 */
@Injectable()
export class SweepUploadsUseCase {
  constructor(
    private readonly files: FileRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null,
  ) {}

  async execute(): Promise<number> {
    let swept = 0;
    for (;;) {
      const now = this.clock.now();
      const due = await this.files.dueForSweep(now, BATCH);
      for (const file of due) {
        if (file.tempKey) await this.storage.delete(file.tempKey);
        // A commit moves the upload to the private key before verifying it; one that died on the way left it there.
        if (file.state !== 'ready') await this.storage.delete(objectKeyOf(file.accountId, file.id));
        await this.files.finishSweep(file.id, now);
      }
      swept += due.length;
      if (due.length < BATCH) break;
    }
    if (swept > 0) this.logger?.info({ swept }, 'expired uploads swept');
    return swept;
  }
}
