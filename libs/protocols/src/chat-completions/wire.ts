import { ProtocolError } from '../canonical/text-input';

/** A JSON object of the request, read field by field. */
export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field OpenAI defines (or an aggregator adds) that this service does not accept: 400 `unsupported_parameter`. */
export const unsupported = (param: string): ProtocolError =>
  new ProtocolError(400, 'unsupported_parameter', 'compat.unsupported_parameter', { param }, param);

/** A required field that is absent: 400 `invalid_request`. */
export const missing = (param: string): ProtocolError =>
  new ProtocolError(400, 'invalid_request', 'request.missing_field', { field: param }, param);

/** A field whose value has the wrong type or is not one of the accepted values: 400 `invalid_request`. */
export const invalid = (param: string): ProtocolError =>
  new ProtocolError(400, 'invalid_request', 'request.invalid_field', { field: param }, param);

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
