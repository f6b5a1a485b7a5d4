import { copyFields, lazyField } from './lazy-field';

describe('lazyField', () => {
  it('computes the field on its first read only, and never when nobody reads it', () => {
    let calls = 0;
    const unread = lazyField({ a: 1 }, 'b', () => (calls += 1));
    const copy = copyFields(unread);
    expect(copy.a).toBe(1);
    expect(calls).toBe(0);
    const read = lazyField({ a: 1 }, 'b', () => {
      calls += 1;
      return 'value';
    });
    expect([read.b, read.b]).toEqual(['value', 'value']);
    expect(calls).toBe(1);
  });

  it('reads like a plain field in a spread, JSON and keys, and a copy shares its remembered value', () => {
    let calls = 0;
    const object = lazyField({ a: 1 }, 'b', () => {
      calls += 1;
      return 2;
    });
    const copy = copyFields(object);
    expect({ ...copy }).toEqual({ a: 1, b: 2 });
    expect(JSON.parse(JSON.stringify(object))).toEqual({ a: 1, b: 2 });
    expect(Object.keys(object)).toEqual(['a', 'b']);
    expect(calls).toBe(1);
  });
});
