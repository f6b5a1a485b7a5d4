import type { ExecutionUsage } from '@gen/contracts';
import type { PriceKey } from './pricing';

const PER_MILLION = 1_000_000n;

/**
 * The charge of usage at unit prices (nano-USD), exact: every term is summed as a fraction over 1e6 and the
 * total rounded once to the nearest nano-USD, halves up.
 * - perImage x images
 * - perMegapixel x pixels / 1e6
 * - perSecond x milliseconds / 1e3
 * - perMillion{Input,CachedInput,Output}Tokens x tokens / 1e6
 */
export function chargeOfUsageE9(prices: Partial<Record<PriceKey, bigint>>, usage: ExecutionUsage): bigint {
  const n = (value: number | undefined): bigint => {
    if (value === undefined) return 0n;
    if (!Number.isSafeInteger(value) || value < 0)
      throw new RangeError(`usage must be whole units, got ${value}`);
    return BigInt(value);
  };
  const numerator =
    (prices.perImage ?? 0n) * n(usage.images) * PER_MILLION +
    (prices.perMegapixel ?? 0n) * n(usage.pixels) +
    (prices.perSecond ?? 0n) * n(usage.milliseconds) * 1000n +
    (prices.perMillionInputTokens ?? 0n) * n(usage.inputTokens) +
    (prices.perMillionCachedInputTokens ?? 0n) * n(usage.cachedInputTokens) +
    (prices.perMillionOutputTokens ?? 0n) * n(usage.outputTokens);
  return (numerator + PER_MILLION / 2n) / PER_MILLION;
}
