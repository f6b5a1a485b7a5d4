import { Inject, Injectable } from '@nestjs/common';
import type { KeySpendPort } from '@gen/contracts';
import { CLOCK, formatUsd, type Clock } from '@gen/core';
import { utcDay } from '../domain/hold-amounts';
import { HoldsRepository } from '../persistence/holds.repository';

/** KEY_SPEND_PORT: what each key has spent against its daily cap in the current UTC day. */
@Injectable()
export class KeySpendPortAdapter implements KeySpendPort {
  constructor(
    private readonly holds: HoldsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async spentToday(keyIds: readonly string[]): Promise<Record<string, string>> {
    const spent = await this.holds.spentOn(keyIds, utcDay(this.clock.now()));
    return Object.fromEntries(keyIds.map((keyId) => [keyId, formatUsd(spent.get(keyId) ?? 0n)]));
  }
}
