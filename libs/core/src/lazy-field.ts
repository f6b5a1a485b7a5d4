/**
 * `target` with one more field, `key`, computed by `compute` the first time it is read and remembered after: for
 * a value few readers need and that costs real work (a request's fingerprint is canonical JSON and SHA-256, read
 * only with an Idempotency-Key or a quote). The field is enumerable, so a spread or JSON reads it like any other.
 * `copyFields` copies an object's fields without reading a lazy one.
 */
export function lazyField<T extends object, K extends string, V>(
  target: T,
  key: K,
  compute: () => V,
): T & { readonly [P in K]: V } {
  let computed = false;
  let value: V;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: false,
    get: () => {
      if (!computed) {
        value = compute();
        computed = true;
      }
      return value;
    },
  });
  return target as T & { readonly [P in K]: V };
}

/** A shallow copy of `source` that keeps its lazy fields lazy (a spread would compute them). */
export function copyFields<T extends object>(source: T): T {
  return Object.defineProperties({}, Object.getOwnPropertyDescriptors(source)) as T;
}
