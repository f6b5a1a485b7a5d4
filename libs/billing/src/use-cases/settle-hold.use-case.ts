import { Inject, Injectable } from '@nestjs/common';
import { IdPrefix, type HoldView } from '@gen/contracts';
import { CLOCK, newId, type Clock } from '@gen/core';
import { toHoldView, type EventCause } from '../domain/hold';
import { parseCharge } from '../domain/hold-amounts';
import { HoldsRepository } from '../persistence/holds.repository';

/**
 * Charges `min(charge, amount)` (from the allocations in the order they were taken), returns the rest to
 * the sources it came from and off the key's daily spend, and publishes `hold.settled` through the outbox
 * (unless `quiet`: its caller records the outcome itself). A `reserved` hold may be settled too. No-op once final.
 */
@Injectable()
export class SettleHoldUseCase {
  constructor(
    private readonly holds: HoldsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(holdId: string, charge: string, cause?: EventCause, quiet = false): Promise<HoldView | null> {
    const chargeE9 = parseCharge(charge);
    const now = this.clock.now();
    const hold = await this.holds.finish(
      { holdId, chargeE9, staleOnly: false, now, ledgerId: newId(IdPrefix.ledgerEntry) },
      quiet ? null : { id: newId(IdPrefix.event), occurredAt: now, cause },
    );
    return hold ? toHoldView(hold) : null;
  }
}
