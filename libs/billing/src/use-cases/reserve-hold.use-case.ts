import { Inject, Injectable } from '@nestjs/common';
import { IdPrefix, type HoldView, type ReserveHoldCommand } from '@gen/contracts';
import { CLOCK, invalidField, newId, type Clock } from '@gen/core';
import { BILLING_OPTIONS, type BillingOptions } from '../domain/billing-options';
import { toHoldView } from '../domain/hold';
import { parseDailyCap, parseHoldAmount, utcDay } from '../domain/hold-amounts';
import { HoldsRepository } from '../persistence/holds.repository';

/**
 * Holds an amount of the account's live funds for a task, in one atomic step: idempotent per hold id,
 * refused with 40202 past the key's daily cap and with 40201 when the funds do not cover it (then nothing
 * changes). The hold stays `reserved` until confirmed; the sweeper releases it after `reserveTtlMs`.
 */
@Injectable()
export class ReserveHoldUseCase {
  constructor(
    private readonly holds: HoldsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  async execute(command: ReserveHoldCommand): Promise<HoldView> {
    for (const field of ['holdId', 'accountId', 'keyId', 'model'] as const) {
      if (!command[field]) throw invalidField(field);
    }
    const amountE9 = parseHoldAmount(command.amount);
    const capE9 = parseDailyCap(command.dailyCap);
    const now = this.clock.now();
    const hold = await this.holds.reserve({
      holdId: command.holdId,
      accountId: command.accountId,
      keyId: command.keyId,
      model: command.model,
      amountE9,
      capE9,
      day: utcDay(now),
      now,
      expiresAt: new Date(now.getTime() + this.options.reserveTtlMs),
      ledgerId: newId(IdPrefix.ledgerEntry),
    });
    return toHoldView(hold);
  }
}
