import { createHash } from 'node:crypto';

/**
 * A deep copy of a JSON value with every object's keys in code-point order, so that two inputs that differ
 * only in key order give the same copy and the same serialization. Arrays keep their order.
 * A `__proto__` key (JSON.parse makes it an own property) stays an own property, never a prototype.
 */
export function canonicalize<T>(value: T): T {
  return copy(value) as T;
}

function copy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copy);
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source).sort()) {
    const item = source[key];
    if (item === undefined) continue;
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value: copy(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = copy(item);
  }
  return out;
}

/** The canonical serialization: JSON with sorted keys, no whitespace. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value));
}

/**
 * The fingerprint of a model request, stable across key order: sha256 (hex) of the canonical JSON of
 * `{model, input}`. Give it the normalized input (defaults applied) so that an omitted default and the
 * same value sent explicitly agree; idempotency records and quotes compare these.
 */
export function requestFingerprint(model: string, input: unknown): string {
  return createHash('sha256').update(canonicalJson({ input, model })).digest('hex');
}

/** `requestFingerprint` for an input that is already canonical (validateModelInput's result): no copy. */
export function canonicalRequestFingerprint(model: string, normalizedInput: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify({ input: normalizedInput, model }))
    .digest('hex');
}
