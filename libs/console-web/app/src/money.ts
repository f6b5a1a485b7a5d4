/**
 * Amounts stay decimal strings everywhere they are shown. Only the usage plot needs a number per day: the
 * amount in micro-USD, an integer (exact up to 2^53 micro-USD, about 9 billion USD), made from the string's
 * digits, never by parsing it as a float.
 */
export function microUsd(decimal: string): number {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match) return 0;
  const fraction = (match[2] ?? '').padEnd(6, '0').slice(0, 6);
  return Number(BigInt(match[1]!) * 1_000_000n + BigInt(fraction));
}

/** A micro-USD integer of the plot's axis back to a decimal string ("0.004"). */
export function formatMicroUsd(micro: number): string {
  const value = BigInt(Math.round(micro));
  const whole = value / 1_000_000n;
  const fraction = (value % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}
