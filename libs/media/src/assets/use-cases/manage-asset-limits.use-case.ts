import { Inject, Injectable } from '@nestjs/common';
import { ACCOUNT_DIRECTORY, BusinessCode, type AccountDirectory } from '@gen/contracts';
import { CLOCK, DomainError, type Clock } from '@gen/core';
import type { AssetPlanName } from '../domain/asset-plans';
import { AssetLimitsRepository } from '../persistence/asset-limits.repository';
import { GetAssetUsageUseCase, type AssetUsageView } from './get-asset-usage.use-case';

export interface PutAssetLimits {
  readonly plan: AssetPlanName;
  /** Overrides of the plan's limits; left out, the plan's own. */
  readonly bytes?: number;
  readonly count?: number;
}

export type AccountAssetUsage = { readonly accountId: string } & AssetUsageView;

/**
 * `/admin/v1/accounts/{accountId}/asset-limits`: an account's asset plan and limits, read and replaced by
 * operators. Lowering a limit below the library's usage keeps its assets and refuses new ones. An unknown
 * account is 404.
 */
@Injectable()
export class ManageAssetLimitsUseCase {
  constructor(
    private readonly limits: AssetLimitsRepository,
    private readonly usage: GetAssetUsageUseCase,
    @Inject(ACCOUNT_DIRECTORY) private readonly accounts: AccountDirectory,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async get(accountId: string): Promise<AccountAssetUsage> {
    await this.requireAccount(accountId);
    return { accountId, ...(await this.usage.execute(accountId)) };
  }

  async put(accountId: string, command: PutAssetLimits): Promise<AccountAssetUsage> {
    await this.requireAccount(accountId);
    await this.limits.put(
      accountId,
      { plan: command.plan, bytesLimit: command.bytes ?? null, countLimit: command.count ?? null },
      this.clock.now(),
    );
    return { accountId, ...(await this.usage.execute(accountId)) };
  }

  private async requireAccount(accountId: string): Promise<void> {
    if (!(await this.accounts.exists(accountId))) {
      throw new DomainError(BusinessCode.NotFound, 'account.not_found');
    }
  }
}
