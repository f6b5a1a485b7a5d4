import { createHash } from 'node:crypto';
import { BusinessCode } from '@gen/contracts';
import { DomainError, MAX_JSON_DEPTH } from '@gen/core';

type Container = Record<string, unknown> | unknown[];

interface Copying {
  readonly source: Container;
  readonly target: Container;
  readonly depth: number;
}

/**
 * A deep copy of a JSON value with every object's keys in code-point order, so that two inputs that differ
 * only in key order give the same copy and the same serialization. Arrays keep their order.
 * A `__proto__` key (JSON.parse makes it an own property) stays an own property, never a prototype.
 *
 * Iterative, and bounded: a value nested deeper than MAX_JSON_DEPTH is a 400 (`request.too_deep`), never a
 * stack overflow. The edge refuses such bodies first; this holds for every other caller too.
 */
export function sortKeysDeep<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  const stack: Copying[] = [];
  const place = (item: unknown, depth: number): unknown => {
    if (item === null || typeof item !== 'object') return item;
    if (depth > MAX_JSON_DEPTH) {
      throw new DomainError(BusinessCode.InvalidRequest, 'request.too_deep', { max: MAX_JSON_DEPTH });
    }
    const target: Container = Array.isArray(item) ? [] : {};
    stack.push({ source: item as Container, target, depth });
    return target;
  };
  const root = place(value, 1);
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { source, target, depth } = next;
    if (Array.isArray(source)) {
      const out = target as unknown[];
      for (const item of source) out.push(place(item, depth + 1));
      continue;
    }
    const out = target as Record<string, unknown>;
    for (const key of Object.keys(source).sort()) {
      const item = source[key];
      if (item === undefined) continue;
      const copy = place(item, depth + 1);
      if (key === '__proto__') {
        Object.defineProperty(out, key, {
          value: copy,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else out[key] = copy;
    }
  }
  return root as T;
}

/** JSON with every object's keys sorted, no whitespace: one text for inputs that differ only in key order. */
export function sortedJson(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value));
}

/**
 * The fingerprint of a model request, stable across key order: sha256 (hex) of the sorted JSON of
 * `{model, input}`. Give it the normalized input (defaults applied) so that an omitted default and the
 * same value sent explicitly agree; idempotency records and quotes compare these.
 */
export function requestFingerprint(model: string, input: unknown): string {
  return createHash('sha256').update(sortedJson({ input, model })).digest('hex');
}

/** `requestFingerprint` for an input whose keys are already sorted (validateModelInput's result): no copy. */
export function fingerprintOfSorted(model: string, normalizedInput: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify({ input: normalizedInput, model }))
    .digest('hex');
}
