export { isRecord as isObject, invalid, missing, unsupported, type Json } from '../canonical/wire';
import { invalid, unsupported, type Json } from '../canonical/wire';

export const isInteger = (value: unknown): value is number => Number.isInteger(value);
export const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** Fails with `invalid` when a present value is not a string. */
export function stringAt(value: unknown, param: string): string {
  if (typeof value !== 'string') throw invalid(param);
  return value;
}

/** Every key of `object` not in `known` is refused, at `prefix.key`; a null value counts as absent. */
export function refuseUnknownKeys(object: Json, known: ReadonlySet<string>, prefix: string): void {
  for (const key of Object.keys(object)) {
    if (!known.has(key) && object[key] !== undefined && object[key] !== null)
      throw unsupported(`${prefix}.${key}`);
  }
}
