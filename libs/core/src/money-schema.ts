import { Type } from '@sinclair/typebox';

/**
 * An amount a caller or operator may send: a non-negative USD decimal with at most 9 integer digits and
 * 9 decimals. Its nano-USD value (< 1e18) always fits PostgreSQL's BIGINT, and so do sums of many.
 */
export const USD_AMOUNT_PATTERN = '^(0|[1-9]\\d{0,8})(\\.\\d{1,9})?$';
export const UsdAmount = Type.String({
  pattern: USD_AMOUNT_PATTERN,
  description: 'USD decimal string: at most 999999999.999999999, at most 9 decimals, no sign or exponent.',
});
/** A decimal amount in a response: any size, possibly negative, never a float. */
export const UsdDecimal = Type.String({
  pattern: '^-?(0|[1-9]\\d*)(\\.\\d{1,9})?$',
  description: 'Exact USD decimal string.',
});
