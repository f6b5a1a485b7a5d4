import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, formatUsd, type Clock } from '@gen/core';
import { FundsRepository, type FundingSourceRow } from '../persistence/funds.repository';

export interface GrantView {
  readonly id: string;
  readonly model: string;
  readonly available: string;
  readonly expiresAt?: string;
}

export interface BalanceView {
  readonly currency: 'USD';
  /** Net available: what the live funding sources have left (holds have already taken their part). */
  readonly available: string;
  /** Outstanding holds (reserved or confirmed). */
  readonly held: string;
  /** available + held. */
  readonly total: string;
  readonly sources: { readonly wallet: string; readonly credit: string; readonly grants: GrantView[] };
}

const sumRemaining = (sources: readonly FundingSourceRow[]): bigint =>
  sources.reduce((sum, s) => sum + s.remainingE9, 0n);

/** The account's balance and funding sources, exact decimal strings. */
@Injectable()
export class GetBalanceUseCase {
  constructor(
    private readonly funds: FundsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async availableE9(accountId: string): Promise<bigint> {
    const sources = await this.funds.liveSources(accountId, this.clock.now());
    return sumRemaining(sources);
  }

  async execute(accountId: string): Promise<BalanceView> {
    const { sources, heldE9: held } = await this.funds.sourcesAndHeld(accountId, this.clock.now());
    let wallet = 0n;
    let credit = 0n;
    const grants: GrantView[] = [];
    for (const s of sources) {
      if (s.kind === 'wallet') wallet += s.remainingE9;
      else if (s.kind === 'promo') credit += s.remainingE9;
      else
        grants.push({
          id: s.id,
          model: s.model ?? '',
          available: formatUsd(s.remainingE9),
          ...(s.expiresAt ? { expiresAt: s.expiresAt.toISOString() } : {}),
        });
    }
    const available = sumRemaining(sources);
    return {
      currency: 'USD',
      available: formatUsd(available),
      held: formatUsd(held),
      total: formatUsd(available + held),
      sources: { wallet: formatUsd(wallet), credit: formatUsd(credit), grants },
    };
  }
}
