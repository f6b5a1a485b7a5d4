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

/**
 * A USD decimal string as a person reads it: to the cent from one cent up ("24.987373" -> "24.99", half up),
 * below a cent to its first two significant digits ("0.004" -> "0.004", "0.0012345" -> "0.0012"), never in
 * exponent notation. Digits only, never through a float. The exact amount stays available (`Money`'s title).
 */
export function readableUsd(decimal: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match) return decimal;
  const [, sign, whole, fraction = ''] = match;
  let digits: number;
  if (BigInt(whole!) > 0n || /^[1-9]/.test(fraction)) digits = 2;
  else {
    const firstSignificant = fraction.search(/[1-9]/);
    if (firstSignificant < 0) return `${sign}${whole}`;
    digits = firstSignificant + 2;
  }
  if (fraction.length <= digits) return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
  const scaled = BigInt(`${whole}${fraction.slice(0, digits)}`) + (Number(fraction[digits]) >= 5 ? 1n : 0n);
  const text = scaled.toString().padStart(digits + 1, '0');
  const rounded = `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return `${sign}${digits === 2 ? rounded : rounded.replace(/0+$/, '').replace(/\.$/, '')}`;
}
