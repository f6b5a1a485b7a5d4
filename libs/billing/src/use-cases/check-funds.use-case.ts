import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, type FundsCheck } from '@gen/contracts';
import { CLOCK, DomainError, type Clock } from '@gen/core';
import { parseDailyCap, parseHoldAmount, utcDay } from '../domain/hold-amounts';
import { HoldsRepository } from '../persistence/holds.repository';

/** Whether a reserve of this size would pass now (quotes): the same checks and errors, nothing held. */
@Injectable()
export class CheckFundsUseCase {
  constructor(
    private readonly holds: HoldsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(check: FundsCheck): Promise<void> {
    const amountE9 = parseHoldAmount(check.amount);
    const capE9 = parseDailyCap(check.dailyCap);
    const now = this.clock.now();
    const { availableE9, spentE9 } = await this.holds.fundsAndSpend({
      accountId: check.accountId,
      keyId: check.keyId,
      model: check.model,
      day: utcDay(now),
      now,
    });
    // The order of reserve_hold: the cap first, then the funds.
    if (spentE9 + amountE9 > capE9) throw new DomainError(BusinessCode.SpendCapReached, 'spend_cap.reached');
    if (availableE9 < amountE9)
      throw new DomainError(BusinessCode.InsufficientBalance, 'balance.insufficient');
  }
}
