import { NotJsonSafeError, assertJsonSafe, jsonRoundTrip } from './json-safe';

class Money {
  constructor(readonly amount: string) {}
}

describe('assertJsonSafe', () => {
  it.each([
    ['a bigint', { amount: 5n }, '$.amount is a bigint (send money as a decimal string)'],
    ['a Date', { at: new Date(0) }, '$.at is a Date instance (send plain objects)'],
    ['a class instance', { price: new Money('1.5') }, '$.price is a Money instance (send plain objects)'],
    ['a Map', new Map(), '$ is a Map instance (send plain objects)'],
    ['NaN', { ratio: Number.NaN }, '$.ratio is NaN'],
    ['Infinity', [Number.POSITIVE_INFINITY], '$[0] is Infinity'],
    ['a function', { f: () => 1 }, '$.f is a function'],
    ['undefined in an array', [1, undefined], '$[1] is undefined (JSON makes it null)'],
    ['a symbol key', { [Symbol('k')]: 1 }, '$ has symbol keys'],
  ])('refuses %s, naming where it is', (_what, value, problem) => {
    expect(() => assertJsonSafe(value, 'the payload of billing.reserve')).toThrow(
      new NotJsonSafeError(`the payload of billing.reserve is not JSON-safe: ${problem}`),
    );
  });

  it('refuses a cycle but accepts the same object twice side by side', () => {
    const shared = { id: 'a' };
    expect(() => assertJsonSafe({ left: shared, right: shared }, 'x')).not.toThrow();
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => assertJsonSafe(cyclic, 'x')).toThrow('$.self is a circular reference');
  });

  it('accepts plain data, null prototypes, nothing at all, and drops undefined properties on the round trip', () => {
    const value = { amount: '12.500000000', n: 3, ok: true, none: null, list: [{ a: 'b' }], gone: undefined };
    expect(jsonRoundTrip(value, 'x')).toStrictEqual({
      amount: '12.500000000',
      n: 3,
      ok: true,
      none: null,
      list: [{ a: 'b' }],
    });
    expect(() => assertJsonSafe(Object.assign(Object.create(null) as object, { a: 1 }), 'x')).not.toThrow();
    expect(jsonRoundTrip(undefined, 'x')).toBeUndefined();
  });
});
