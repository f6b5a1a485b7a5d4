import { rowBigint, rowDate, rowJson, rowOptionalDate } from './row-values';

describe('row values, read alike from pg and PGlite', () => {
  it('reads BIGINT given as text, number or bigint', () => {
    expect(rowBigint('9007199254740993')).toBe(9007199254740993n);
    expect(rowBigint(42)).toBe(42n);
    expect(rowBigint(7n)).toBe(7n);
  });

  it('reads timestamps given as Date or text, and keeps null', () => {
    const at = new Date('2026-11-23T10:00:00.123Z');
    expect(rowDate(at)).toBe(at);
    expect(rowDate('2026-11-23T10:00:00.123Z')).toEqual(at);
    expect(rowOptionalDate(null)).toBeNull();
    expect(rowOptionalDate(undefined)).toBeNull();
    expect(rowOptionalDate('2026-11-23T10:00:00.123Z')).toEqual(at);
  });

  it('reads JSON given parsed or as text, and keeps null', () => {
    expect(rowJson<{ a: number }>('{"a":1}')).toEqual({ a: 1 });
    expect(rowJson<number[]>([1, 2])).toEqual([1, 2]);
    expect(rowJson(null)).toBeNull();
  });
});
