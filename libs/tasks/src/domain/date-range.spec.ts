import { type DomainError } from '@gen/core';
import { resolveDateRange } from './date-range';

const now = new Date('2026-11-23T15:00:00Z');
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as DomainError).messageId;
  }
  return 'none';
};

describe('resolveDateRange', () => {
  it('defaults to: tomorrow (UTC), from: seven days before to', () => {
    expect(resolveDateRange({}, now)).toEqual({ from: '2026-11-17', to: '2026-11-24' });
    expect(resolveDateRange({ to: '2026-01-10' }, now)).toEqual({ from: '2026-01-03', to: '2026-01-10' });
    expect(resolveDateRange({ from: '2026-11-01' }, now)).toEqual({ from: '2026-11-01', to: '2026-11-24' });
  });

  it('accepts exactly 92 days and refuses 93', () => {
    expect(resolveDateRange({ from: '2026-01-01', to: '2026-04-03' }, now)).toEqual({
      from: '2026-01-01',
      to: '2026-04-03',
    });
    expect(codeOf(() => resolveDateRange({ from: '2026-01-01', to: '2026-04-04' }, now))).toBe(
      'query.range_too_long',
    );
  });

  it('refuses an empty or inverted range and dates that do not exist', () => {
    expect(codeOf(() => resolveDateRange({ from: '2026-03-01', to: '2026-03-01' }, now))).toBe(
      'query.invalid_range',
    );
    expect(codeOf(() => resolveDateRange({ from: '2026-03-02', to: '2026-03-01' }, now))).toBe(
      'query.invalid_range',
    );
    for (const bad of ['2026-02-30', '2026-13-01', '26-01-01', '2026-1-1', '2026-01-01T00:00:00Z']) {
      expect(codeOf(() => resolveDateRange({ from: bad, to: '2026-12-31' }, now))).toBe(
        'request.invalid_field',
      );
    }
  });
});
