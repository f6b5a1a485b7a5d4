import { BusinessCode } from '@gen/contracts';
import { DomainError, parseUsd } from '@gen/core';

/**
 * The range of a group's price multiplier. Every price of the group's accounts is the standard price times
 * it, rounded to the nano-USD (the unit of every amount), and a request is accepted only with a hold above 0:
 * a multiplier of 0, or one so small that prices round to 0 (0.000000001 x 0.004 USD), made every request of
 * the group fail with "Invalid amount". At least 0.01 (a 99% discount) keeps the catalog's prices positive;
 * at most 4 decimal places keeps a price of up to 5 decimals exact after multiplying (9 decimals in all);
 * at most 100 keeps a mistyped multiplier from charging a hundredfold and more. Free use is given with credit
 * (promotional or a model grant), not with a zero multiplier.
 */
export const MIN_MULTIPLIER = '0.01';
export const MAX_MULTIPLIER = '100';
export const MULTIPLIER_DECIMALS = 4;

const MIN_E9 = parseUsd(MIN_MULTIPLIER)!;
const MAX_E9 = parseUsd(MAX_MULTIPLIER)!;
const SHAPE = /^\d+(?:\.(\d+))?$/;

/** A multiplier as an exact amount in 1e-9 units; 400 naming the range when it is outside it. */
export function priceMultiplierE9(multiplier: string): bigint {
  const shape = SHAPE.exec(multiplier);
  const decimals = shape?.[1]?.length ?? 0;
  const e9 = shape && decimals <= MULTIPLIER_DECIMALS ? parseUsd(multiplier) : null;
  if (e9 === null || e9 < MIN_E9 || e9 > MAX_E9) {
    throw new DomainError(BusinessCode.InvalidRequest, 'group.invalid_multiplier', {
      field: 'multiplier',
      min: MIN_MULTIPLIER,
      max: MAX_MULTIPLIER,
      decimals: MULTIPLIER_DECIMALS,
    });
  }
  return e9;
}
