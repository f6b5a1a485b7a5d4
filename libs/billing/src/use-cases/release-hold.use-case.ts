import { Inject, Injectable } from '@nestjs/common';
import { IdPrefix, type HoldView } from '@gen/contracts';
import { CLOCK, newId, type Clock } from '@gen/core';
import { toHoldView, type EventCause } from '../domain/hold';
import { HoldsRepository } from '../persistence/holds.repository';

export interface ReleaseOptions {
  readonly cause?: EventCause;
  /** Only a `reserved` hold whose expiry has passed (the sweeper): a confirmed hold is kept. */
  readonly staleOnly?: boolean;
  /** No `hold.released` event: the caller records the outcome itself (FinishHoldOptions). */
  readonly quiet?: boolean;
}

/** Returns everything held to its sources and publishes `hold.released` through the outbox. No-op once final. */
@Injectable()
export class ReleaseHoldUseCase {
  constructor(
    private readonly holds: HoldsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(
    holdId: string,
    options: ReleaseOptions = {},
  ): Promise<{ view: HoldView; released: boolean } | null> {
    const now = this.clock.now();
    const hold = await this.holds.finish(
      {
        holdId,
        chargeE9: null,
        staleOnly: options.staleOnly ?? false,
        now,
        ledgerId: newId(IdPrefix.ledgerEntry),
      },
      options.quiet === true ? null : { id: newId(IdPrefix.event), occurredAt: now, cause: options.cause },
    );
    return hold ? { view: toHoldView(hold), released: hold.applied } : null;
  }
}
