/** A value of a reply or payload that does not have the shape its contract promises: a broken peer. */
export class WireFormatError extends Error {
  constructor(what: string) {
    super(`service call: ${what} is not in its wire format`);
    this.name = 'WireFormatError';
  }
}

/** An integer (nano-USD money) as its exact decimal digits: JSON numbers would lose precision. */
export const bigintToWire = (value: bigint): string => value.toString();

export function bigintFromWire(wire: unknown, what: string): bigint {
  if (typeof wire !== 'string' || !/^-?\d{1,30}$/.test(wire)) throw new WireFormatError(what);
  return BigInt(wire);
}

/** An instant as its ISO 8601 text (milliseconds kept). */
export const dateToWire = (value: Date): string => value.toISOString();

export function dateFromWire(wire: unknown, what: string): Date {
  const date = typeof wire === 'string' ? new Date(wire) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw new WireFormatError(what);
  return date;
}

export function objectFromWire(wire: unknown, what: string): Record<string, unknown> {
  if (typeof wire !== 'object' || wire === null || Array.isArray(wire)) throw new WireFormatError(what);
  return wire as Record<string, unknown>;
}
