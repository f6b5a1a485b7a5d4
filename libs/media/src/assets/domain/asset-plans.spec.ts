import { ASSET_PLANS, assertWithinLimits, limitsOf } from './asset-plans';

const refusal = (run: () => void) => {
  try {
    run();
    return null;
  } catch (error) {
    return error;
  }
};

describe('asset plans and limits', () => {
  it('puts an account nobody set on the free plan, and takes a plan’s defaults for limits left null', () => {
    expect(limitsOf(null)).toEqual({ plan: 'free', ...ASSET_PLANS.free });
    expect(limitsOf({ plan: 'pro', bytesLimit: null, countLimit: 5 })).toEqual({
      plan: 'pro',
      bytes: ASSET_PLANS.pro.bytes,
      count: 5,
    });
    expect(limitsOf({ plan: 'free', bytesLimit: 0, countLimit: null })).toEqual({
      plan: 'free',
      bytes: 0,
      count: ASSET_PLANS.free.count,
    });
  });

  it('admits a save that reaches a limit exactly, and refuses one that passes it with 403', () => {
    const limits = { plan: 'free' as const, bytes: 100, count: 3 };
    expect(refusal(() => assertWithinLimits({ usedBytes: 60, assetCount: 2 }, limits, 40))).toBeNull();
    expect(refusal(() => assertWithinLimits({ usedBytes: 60, assetCount: 2 }, limits, 41))).toMatchObject({
      code: 403,
      messageId: 'asset.quota_bytes',
      params: { limit: 100, used: 60, bytes: 41 },
    });
    expect(refusal(() => assertWithinLimits({ usedBytes: 0, assetCount: 3 }, limits, 1))).toMatchObject({
      code: 403,
      messageId: 'asset.quota_count',
      params: { limit: 3 },
    });
  });

  it('names the count first when both limits would be passed', () => {
    const limits = { plan: 'free' as const, bytes: 10, count: 1 };
    expect(refusal(() => assertWithinLimits({ usedBytes: 10, assetCount: 1 }, limits, 5))).toMatchObject({
      messageId: 'asset.quota_count',
    });
  });
});
