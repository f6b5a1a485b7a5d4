import { BusinessCode } from '@gen/contracts';
import { DomainError, parseUsd } from '@gen/core';

/** The largest amount accepted from outside: 999999999.999999999 USD. */
export const MAX_AMOUNT_E9 = 999_999_999_999_999_999n;
/** PostgreSQL's BIGINT maximum: a larger daily cap is the same as no cap. */
const MAX_BIGINT = 9_223_372_036_854_775_807n;

const invalidAmount = (field: string) =>
  new DomainError(BusinessCode.InvalidRequest, 'amount.invalid', { field });

/** A hold amount: a USD decimal above zero and at most MAX_AMOUNT_E9. */
export function parseHoldAmount(text: string, field = 'amount'): bigint {
  const nanos = parseUsd(text);
  if (nanos === null || nanos <= 0n || nanos > MAX_AMOUNT_E9) throw invalidAmount(field);
  return nanos;
}

/** A charge: a USD decimal, zero allowed. A charge above the hold is cut to the hold by settle. */
export function parseCharge(text: string): bigint {
  const nanos = parseUsd(text);
  if (nanos === null) throw invalidAmount('charge');
  return nanos > MAX_AMOUNT_E9 ? MAX_AMOUNT_E9 : nanos;
}

/** A key's daily cap: a USD decimal, zero allowed (nothing passes); null (no cap) is the largest BIGINT. */
export function parseDailyCap(text: string | null): bigint {
  if (text === null) return MAX_BIGINT;
  const nanos = parseUsd(text);
  if (nanos === null) throw invalidAmount('dailyCap');
  return nanos > MAX_BIGINT ? MAX_BIGINT : nanos;
}

/** The UTC calendar day of an instant, `YYYY-MM-DD`: the day whose cap a reserve counts against. */
export const utcDay = (instant: Date): string => instant.toISOString().slice(0, 10);
