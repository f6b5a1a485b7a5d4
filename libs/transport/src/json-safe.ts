/** A payload or result that JSON would lose or change: a programming error, refused before it travels. */
export class NotJsonSafeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotJsonSafeError';
  }
}

function problemOf(value: unknown, path: string, ancestors: Set<object>): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${path} is ${value}`;
    case 'bigint':
      return `${path} is a bigint (send money as a decimal string)`;
    case 'function':
    case 'symbol':
      return `${path} is a ${typeof value}`;
    case 'object':
      return value === null ? undefined : problemOfObject(value, path, ancestors);
  }
}

function problemOfObject(value: object, path: string, ancestors: Set<object>): string | undefined {
  if (ancestors.has(value)) return `${path} is a circular reference`;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) {
    return `${path} is a ${value.constructor?.name ?? 'class'} instance (send plain objects)`;
  }
  if (Object.getOwnPropertySymbols(value).length > 0) return `${path} has symbol keys`;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) {
        const item: unknown = value[i];
        if (item === undefined) return `${path}[${i}] is undefined (JSON makes it null)`;
        const problem = problemOf(item, `${path}[${i}]`, ancestors);
        if (problem) return problem;
      }
      return undefined;
    }
    for (const [key, item] of Object.entries(value)) {
      const problem = problemOf(item, `${path}.${key}`, ancestors);
      if (problem) return problem;
    }
    return undefined;
  } finally {
    ancestors.delete(value);
  }
}

/** Throws `NotJsonSafeError` naming the first part of `value` that a JSON round trip would lose or change. */
export function assertJsonSafe(value: unknown, what: string): void {
  const problem = problemOf(value, '$', new Set());
  if (problem) throw new NotJsonSafeError(`${what} is not JSON-safe: ${problem}`);
}

/** A deep copy through JSON, as the wire would deliver it; refuses what JSON cannot carry. */
export function jsonRoundTrip<T>(value: T, what: string): T {
  assertJsonSafe(value, what);
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
