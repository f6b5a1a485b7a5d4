import { formatUsd, multiplyE9, parseUsd } from '@gen/core';

/** Unit prices a media model may have; a model lists the ones it bills by. USD decimal strings. */
export const MEDIA_PRICE_KEYS = ['perImage', 'perSecond', 'perMegapixel'] as const;
/** Unit prices of every text model: USD per million tokens. */
export const TEXT_PRICE_KEYS = [
  'perMillionInputTokens',
  'perMillionCachedInputTokens',
  'perMillionOutputTokens',
] as const;
export type PriceKey = (typeof MEDIA_PRICE_KEYS)[number] | (typeof TEXT_PRICE_KEYS)[number];

/** A model's standard prices as the catalog file states them (exact USD decimals). */
export type Pricing = Readonly<Partial<Record<PriceKey, string>>>;

/** Prices for one account group: the same keys, multiplied, plus the currency. */
export type ModelPrices = Readonly<{ currency: 'USD' } & Partial<Record<PriceKey, string>>>;

const ONE_E9 = 1_000_000_000n;

/**
 * A group multiplier ("1", "0.85", "1.2") as an integer in 1e-9 units. Exact: at most 9 decimals, no sign,
 * no exponent. A bigint is taken as already in 1e-9 units (how accounts store it).
 */
export function multiplierE9Of(multiplier: string | bigint): bigint {
  if (typeof multiplier === 'bigint') {
    if (multiplier < 0n) throw new RangeError('a price multiplier cannot be negative');
    return multiplier;
  }
  const e9 = parseUsd(multiplier);
  if (e9 === null)
    throw new RangeError(`invalid price multiplier "${multiplier}": use a decimal such as 0.85`);
  return e9;
}

/**
 * Prices of a model for an account group, in nano-USD. Rounding rule: each unit price is multiplied
 * exactly (bigint), then rounded to the nearest nano-USD (1e-9 USD), halves rounded up (away from zero;
 * prices are never negative). Nothing else is rounded: a price of 0.000000001 with multiplier 0.5 is
 * 0.000000001, with 0.4 it is 0.
 */
export function groupPricesE9(
  pricing: Pricing,
  multiplier: string | bigint,
): Readonly<Partial<Record<PriceKey, bigint>>> {
  // Asked twice per chat answer (its estimate and its charge) with the same model and group: kept per
  // pricing object (the catalog's, replaced when the catalog changes) and multiplier.
  let byMultiplier = computedPrices.get(pricing);
  if (!byMultiplier) computedPrices.set(pricing, (byMultiplier = new Map()));
  const key = typeof multiplier === 'bigint' ? `e9:${multiplier}` : multiplier;
  let prices = byMultiplier.get(key);
  if (!prices) {
    prices = Object.freeze(computeGroupPricesE9(pricing, multiplier));
    // Multipliers are a handful of account groups; a bound keeps a stream of odd ones from growing it.
    if (byMultiplier.size >= 64) byMultiplier.clear();
    byMultiplier.set(key, prices);
  }
  return prices;
}

const computedPrices = new WeakMap<Pricing, Map<string, Readonly<Partial<Record<PriceKey, bigint>>>>>();

function computeGroupPricesE9(
  pricing: Pricing,
  multiplier: string | bigint,
): Partial<Record<PriceKey, bigint>> {
  const factor = multiplierE9Of(multiplier);
  const out: Partial<Record<PriceKey, bigint>> = {};
  for (const key of [...MEDIA_PRICE_KEYS, ...TEXT_PRICE_KEYS]) {
    const standard = pricing[key];
    if (standard === undefined) continue;
    const nanos = parseUsd(standard);
    if (nanos === null) throw new RangeError(`invalid price ${key} "${standard}"`);
    out[key] = factor === ONE_E9 ? nanos : multiplyE9(nanos, factor);
  }
  return out;
}

/** The same prices as exact decimal strings ("0.0034", never a float), with the currency. */
export function groupPrices(pricing: Pricing, multiplier: string | bigint = ONE_E9): ModelPrices {
  const out: { currency: 'USD' } & Partial<Record<PriceKey, string>> = { currency: 'USD' };
  for (const [key, nanos] of Object.entries(groupPricesE9(pricing, multiplier)) as [PriceKey, bigint][]) {
    out[key] = formatUsd(nanos);
  }
  return out;
}
