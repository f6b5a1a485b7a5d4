import { Inject, Injectable, Optional } from '@nestjs/common';
import { MEDIA_INPUT_TRANSIT_PREFIX } from '@gen/contracts';
import { CLOCK, LOGGER, type Clock, type Logger } from '@gen/core';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';

/**
 * How old a media input in transit is when nobody will read it any more: a runner waits at most five minutes
 * for a media input (MEDIA_INPUT_TIMEOUT_MS) and reads it at once; an hour leaves room for clocks and restarts.
 */
export const TRANSIT_RETENTION_MS = 60 * 60 * 1000;

const BATCH = 500;

/**
 * Retention of media inputs in transit: a media input too large for a service call's reply crosses through
 * object storage, written by the media app and deleted by the runner that reads it. A runner that gave up
 * waiting (its task's deadline, a stop) or died before its read leaves the object behind; this removes those
 * older than an hour. Returns how many were removed.
 */
@Injectable()
export class SweepTransitUseCase {
  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null,
  ) {}

  async execute(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - TRANSIT_RETENTION_MS);
    let removed = 0;
    for (;;) {
      const keys = await this.storage.listOlder(MEDIA_INPUT_TRANSIT_PREFIX, before, BATCH);
      for (const key of keys) await this.storage.delete(key);
      removed += keys.length;
      if (keys.length < BATCH) break;
    }
    if (removed > 0) this.logger?.info({ removed }, 'media inputs left in transit removed');
    return removed;
  }
}
