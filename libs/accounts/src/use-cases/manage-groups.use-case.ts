import { Injectable } from '@nestjs/common';
import { formatUsd } from '@gen/core';
import { AccountsRepository } from '../persistence/accounts.repository';

export interface GroupView {
  readonly name: string;
  /** Price multiplier as an exact decimal string. */
  readonly multiplier: string;
}

/** Account groups and their price multipliers (1e-9 precision, exact). */
@Injectable()
export class ManageGroupsUseCase {
  constructor(private readonly accounts: AccountsRepository) {}

  async put(name: string, multiplierE9: bigint): Promise<GroupView> {
    const group = await this.accounts.upsertGroup(name, multiplierE9);
    return { name: group.name, multiplier: formatUsd(group.multiplierE9) };
  }

  async list(): Promise<GroupView[]> {
    return (await this.accounts.listGroups()).map((g) => ({
      name: g.name,
      multiplier: formatUsd(g.multiplierE9),
    }));
  }
}
