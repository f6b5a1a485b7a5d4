import { ProtocolError } from '../canonical/text-input';

/** One field of a request object: its value and the dot path the client wrote (its own key spelling). */
export interface Field {
  value: unknown;
  path: string;
}

export { isRecord as isObject, invalid, missing, type Json } from '../canonical/wire';
import { invalid, isRecord as isObject } from '../canonical/wire';

/** The dot path of `key` under `path` (the root has the empty path). */
export function join(path: string, key: string | number): string {
  return path === '' ? String(key) : `${path}.${key}`;
}

/** 400 `unsupported_parameter`: a field this service does not accept in a generate-content request. */
export function unsupported(path: string): ProtocolError {
  return new ProtocolError(
    400,
    'unsupported_parameter',
    'generate_content.unsupported_parameter',
    { param: path },
    path,
  );
}

/** 400 `invalid_request`: two fields that exclude each other, both sent. */
export function conflicting(first: string, second: string): ProtocolError {
  return new ProtocolError(
    400,
    'invalid_request',
    'generate_content.conflicting_fields',
    { first, second },
    second,
  );
}

const camel = (key: string): string => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The fields of a request object by their camelCase name. Google's JSON parser accepts the proto field names
 * too (`system_instruction`, `max_output_tokens`, as its own curl examples write them), so both spellings are
 * read; both at once is a conflict. A `null` value counts as absent (proto JSON semantics). A key outside
 * `known` is refused with `unsupported_parameter` at its path.
 */
export function fieldsOf(
  value: unknown,
  path: string,
  known: readonly string[],
): Partial<Record<string, Field>> {
  if (!isObject(value)) throw invalid(path === '' ? 'body' : path);
  const fields: Partial<Record<string, Field>> = {};
  for (const [key, fieldValue] of Object.entries(value)) {
    const name = camel(key);
    const fieldPath = join(path, key);
    if (!known.includes(name)) throw unsupported(fieldPath);
    const seen = fields[name];
    if (seen) throw conflicting(seen.path, fieldPath);
    if (fieldValue === null) continue;
    fields[name] = { value: fieldValue, path: fieldPath };
  }
  return fields;
}

/** A field's value as a list, or 400 at its path. */
export function arrayOf(field: Field): unknown[] {
  if (!Array.isArray(field.value)) throw invalid(field.path);
  return field.value;
}

/** A field's value as a string, or 400 at its path. */
export function stringOf(field: Field): string {
  if (typeof field.value !== 'string') throw invalid(field.path);
  return field.value;
}
