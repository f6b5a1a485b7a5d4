/**
 * Money is an integer count of nano-USD (1e-9 USD) held in a bigint, and a decimal string on the wire.
 * No JS float ever holds an amount.
 */
export const NANOS_PER_USD = 1_000_000_000n;

const DECIMAL = /^(0|[1-9]\d{0,14})(?:\.(\d{1,9}))?$/;

/** Parses a non-negative USD decimal string ("25", "25.00", "0.002"); null when it is not one. */
export function parseUsd(text: string): bigint | null {
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').padEnd(9, '0');
  return BigInt(match[1]!) * NANOS_PER_USD + BigInt(fraction);
}

/** Formats nano-USD as the canonical decimal string: no trailing zeros, "0" for zero. */
export function formatUsd(nanos: bigint): string {
  const negative = nanos < 0n;
  const abs = negative ? -nanos : nanos;
  const whole = abs / NANOS_PER_USD;
  const fraction = (abs % NANOS_PER_USD).toString().padStart(9, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Multiplies an amount by a factor given in 1e-9 units (1.0 = 1_000_000_000n), rounding half away from zero. */
export function multiplyE9(nanos: bigint, factorE9: bigint): bigint {
  const product = nanos * factorE9;
  const magnitude = (product < 0n ? -product : product) + NANOS_PER_USD / 2n;
  const rounded = magnitude / NANOS_PER_USD;
  return product < 0n ? -rounded : rounded;
}

/**
 * nano-USD as a float number of USD, for metrics only (a Prometheus sample is a float64): the exact decimal
 * (`formatUsd`) parsed once, so the result is the float nearest to the amount: within half a nano-USD up to
 * 2^22 (about 4.2 million) USD, beyond that within float64's 15-16 significant digits. Never use it to compute
 * an amount.
 */
export function usdForMetrics(nanos: bigint): number {
  return Number(formatUsd(nanos));
}
