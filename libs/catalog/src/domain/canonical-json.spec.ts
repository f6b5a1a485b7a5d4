import {
  canonicalJson,
  canonicalize,
  canonicalRequestFingerprint,
  requestFingerprint,
} from './canonical-json';

describe('canonical JSON', () => {
  it('sorts keys recursively and keeps array order', () => {
    const value = { b: 1, a: { d: [{ z: 1, y: 2 }, 3], c: null } };
    expect(canonicalJson(value)).toBe('{"a":{"c":null,"d":[{"y":2,"z":1},3]},"b":1}');
    expect(Object.keys(canonicalize(value))).toEqual(['a', 'b']);
  });

  it('copies: the original is untouched', () => {
    const value = { b: { c: 1 }, a: 2 };
    const copy = canonicalize(value);
    copy.b.c = 5;
    expect(value.b.c).toBe(1);
  });

  it('keeps a __proto__ key as a plain field, never a prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copy = canonicalize(parsed);
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
      canonicalRequestFingerprint(
        'local/sketch',
        canonicalize({ width: 512, prompt: 'x', nested: { b: 1, a: 2 } }),
      ),
    ).toBe(a);
    expect(requestFingerprint('local/reel', { prompt: 'x', width: 512, nested: { b: 1, a: 2 } })).not.toBe(a);
    expect(requestFingerprint('local/sketch', { prompt: 'y', width: 512, nested: { b: 1, a: 2 } })).not.toBe(
      a,
    );
  });
});
