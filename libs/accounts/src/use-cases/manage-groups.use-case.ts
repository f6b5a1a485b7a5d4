import { Injectable } from '@nestjs/common';
import { formatUsd } from '@gen/core';
import { priceMultiplierE9 } from '../domain/price-multiplier';
import { AccountsRepository } from '../persistence/accounts.repository';

export interface GroupView {
  readonly name: string;
  /** Price multiplier as an exact decimal string. */
  readonly multiplier: string;
}

/**
 * Account groups and their price multipliers (exact, stored in 1e-9 units): a multiplier outside the range
 * prices can carry (see `price-multiplier.ts`) is refused with 400 and nothing changes.
 */
@Injectable()
export class ManageGroupsUseCase {
  constructor(private readonly accounts: AccountsRepository) {}

  async put(name: string, multiplier: string): Promise<GroupView> {
    const group = await this.accounts.upsertGroup(name, priceMultiplierE9(multiplier));
    return { name: group.name, multiplier: formatUsd(group.multiplierE9) };
  }

  async list(): Promise<GroupView[]> {
    return (await this.accounts.listGroups()).map((g) => ({
      name: g.name,
      multiplier: formatUsd(g.multiplierE9),
    }));
  }
}
