import { Injectable } from '@nestjs/common';
import type { AssetPlanName } from '../domain/asset-plans';
import { limitsOf } from '../domain/asset-plans';
import { AssetLimitsRepository } from '../persistence/asset-limits.repository';
import { AssetRepository } from '../persistence/asset.repository';

export interface AssetUsageView {
  readonly plan: AssetPlanName;
  readonly usedBytes: number;
  readonly assetCount: number;
  readonly limits: { readonly bytes: number; readonly count: number };
}

/**
 * The library's plan, usage and limits (GET /api/v1/assets/usage for the caller's account; the admin API for
 * any account).
 */
@Injectable()
export class GetAssetUsageUseCase {
  constructor(
    private readonly assets: AssetRepository,
    private readonly limits: AssetLimitsRepository,
  ) {}

  async execute(accountId: string): Promise<AssetUsageView> {
    const [setting, usage] = await Promise.all([this.limits.find(accountId), this.assets.usage(accountId)]);
    const limits = limitsOf(setting);
    return {
      plan: limits.plan,
      usedBytes: usage.usedBytes,
      assetCount: usage.assetCount,
      limits: { bytes: limits.bytes, count: limits.count },
    };
  }
}
