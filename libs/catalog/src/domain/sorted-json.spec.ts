import { DomainError, MAX_JSON_DEPTH } from '@gen/core';
import { sortedJson, sortKeysDeep, fingerprintOfSorted, requestFingerprint } from './sorted-json';

describe('sorted JSON', () => {
  it('sorts keys recursively and keeps array order', () => {
    const value = { b: 1, a: { d: [{ z: 1, y: 2 }, 3], c: null } };
    expect(sortedJson(value)).toBe('{"a":{"c":null,"d":[{"y":2,"z":1},3]},"b":1}');
    expect(Object.keys(sortKeysDeep(value))).toEqual(['a', 'b']);
  });

  it('copies: the original is untouched', () => {
    const value = { b: { c: 1 }, a: 2 };
    const copy = sortKeysDeep(value);
    copy.b.c = 5;
    expect(value.b.c).toBe(1);
  });

  it('keeps a __proto__ key as a plain field, never a prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copy = sortKeysDeep(parsed);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it('fingerprints {model, input} independently of key order', () => {
    const a = requestFingerprint('local/sketch', { prompt: 'x', width: 512, nested: { b: 1, a: 2 } });
    const b = requestFingerprint('local/sketch', { nested: { a: 2, b: 1 }, width: 512, prompt: 'x' });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(
      fingerprintOfSorted('local/sketch', sortKeysDeep({ width: 512, prompt: 'x', nested: { b: 1, a: 2 } })),
    ).toBe(a);
    expect(requestFingerprint('local/reel', { prompt: 'x', width: 512, nested: { b: 1, a: 2 } })).not.toBe(a);
    expect(requestFingerprint('local/sketch', { prompt: 'y', width: 512, nested: { b: 1, a: 2 } })).not.toBe(
      a,
    );
  });
});

describe('sortKeysDeep on deep values', () => {
  /** `levels` levels of objects and arrays, alternating; objects list `z` before `a`. */
  const nested = (levels: number, sorted = false): unknown => {
    let value: unknown = { leaf: true };
    for (let i = 1; i < levels; i += 1)
      value = i % 2 ? [value] : sorted ? { a: 1, z: value } : { z: value, a: 1 };
    return value;
  };

  it('copies a value nested MAX_JSON_DEPTH levels, keys sorted at every level', () => {
    const value = nested(MAX_JSON_DEPTH);
    expect(sortedJson(value)).toBe(JSON.stringify(nested(MAX_JSON_DEPTH, true)));
    expect(sortKeysDeep(value)).toEqual(value);
  });

  it('refuses one level more with a 400, and 10,000 levels without overflowing the stack', () => {
    for (const levels of [MAX_JSON_DEPTH + 1, 10_000]) {
      let thrown: unknown;
      try {
        sortKeysDeep(nested(levels));
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(DomainError);
      expect(thrown).toMatchObject({ code: 400, messageId: 'request.too_deep' });
    }
  });
});
