import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import type { AssetUsage } from './asset';

const GIB = 1024 * 1024 * 1024;

/**
 * The asset plans and their default limits. An operator puts an account on a plan and may override either
 * limit (admin API, CLI); an account nobody set is on `free`.
 */
export const ASSET_PLANS = {
  free: { bytes: 1 * GIB, count: 1_000 },
  pro: { bytes: 100 * GIB, count: 100_000 },
} as const;

export type AssetPlanName = keyof typeof ASSET_PLANS;
export const ASSET_PLAN_NAMES = Object.keys(ASSET_PLANS) as AssetPlanName[];
export const DEFAULT_ASSET_PLAN: AssetPlanName = 'free';

/** An account's plan as stored: a null limit takes the plan's default. */
export interface AssetPlanSetting {
  readonly plan: AssetPlanName;
  readonly bytesLimit: number | null;
  readonly countLimit: number | null;
}

/** The limits in force. */
export interface AssetLimits {
  readonly plan: AssetPlanName;
  readonly bytes: number;
  readonly count: number;
}

/** The limits of an account's setting; no setting is the default plan. */
export function limitsOf(setting: AssetPlanSetting | null): AssetLimits {
  const plan = setting?.plan ?? DEFAULT_ASSET_PLAN;
  return {
    plan,
    bytes: setting?.bytesLimit ?? ASSET_PLANS[plan].bytes,
    count: setting?.countLimit ?? ASSET_PLANS[plan].count,
  };
}

/**
 * Refuses one more asset of `bytes` when the library would then pass a limit (403, not retryable without a
 * change: delete assets or raise the limits). The count is checked first. A library already over a lowered
 * limit keeps its assets; only new ones are refused.
 */
export function assertWithinLimits(usage: AssetUsage, limits: AssetLimits, bytes: number): void {
  if (usage.assetCount + 1 > limits.count) {
    throw new DomainError(BusinessCode.Forbidden, 'asset.quota_count', { limit: limits.count });
  }
  if (usage.usedBytes + bytes > limits.bytes) {
    throw new DomainError(BusinessCode.Forbidden, 'asset.quota_bytes', {
      limit: limits.bytes,
      used: usage.usedBytes,
      bytes,
    });
  }
}
