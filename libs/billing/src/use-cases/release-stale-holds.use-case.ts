import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@gen/core';
import { HoldsRepository } from '../persistence/holds.repository';
import { ReleaseHoldUseCase } from './release-hold.use-case';

const BATCH = 100;

/**
 * Releases `reserved` holds whose expiry has passed: reserves that no created task ever confirmed (the
 * process died between reserve and task creation, or the task was never written). Returns how many.
 */
@Injectable()
export class ReleaseStaleHoldsUseCase {
  constructor(
    private readonly holds: HoldsRepository,
    private readonly release: ReleaseHoldUseCase,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(): Promise<number> {
    let released = 0;
    for (;;) {
      const ids = await this.holds.staleReserves(this.clock.now(), BATCH);
      for (const holdId of ids) {
        // Confirmed meanwhile? finish_hold re-checks status and expiry under the row lock.
        if ((await this.release.execute(holdId, { staleOnly: true }))?.released) released += 1;
      }
      if (ids.length < BATCH) return released;
    }
  }
}
