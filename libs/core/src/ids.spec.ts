import { newId, randomBase62, ulid } from './ids';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** Decodes the 10-character time part of a ULID back to milliseconds. */
function timeOf(id: string): number {
  let ms = 0;
  for (const char of id.slice(0, 10)) ms = ms * 32 + CROCKFORD.indexOf(char);
  return ms;
}

describe('ulid', () => {
  it('is 26 Crockford base32 characters (no I, L, O, U)', () => {
    for (let i = 0; i < 200; i += 1) expect(ulid()).toMatch(ULID);
  });

  it('encodes the time in the first 10 characters (the ULID specification example)', () => {
    expect(ulid(1469918176385).slice(0, 10)).toBe('01ARYZ6S41');
  });

  it('encodes time 0 as ten zeros and the largest 48-bit time as 7ZZZZZZZZZ', () => {
    expect(ulid(0).slice(0, 10)).toBe('0000000000');
    expect(ulid(2 ** 48 - 1).slice(0, 10)).toBe('7ZZZZZZZZZ');
  });

  it('round-trips the time part', () => {
    for (const ms of [1, 31, 32, 1_700_000_000_000, 1_735_689_600_123]) expect(timeOf(ulid(ms))).toBe(ms);
  });

  it('uses the current time when none is given', () => {
    const before = Date.now();
    const id = ulid();
    const after = Date.now();
    expect(timeOf(id)).toBeGreaterThanOrEqual(before);
    expect(timeOf(id)).toBeLessThanOrEqual(after);
  });

  it('sorts by time across milliseconds, including where a time digit rolls over', () => {
    const times = [0, 1, 31, 32, 33, 1023, 1024, 1_700_000_000_000, 1_700_000_000_001, 1_700_000_001_000];
    const ids = times.map((t) => ulid(t));
    expect([...ids].sort()).toEqual(ids);
    for (let i = 1; i < ids.length; i += 1) expect(ids[i - 1]! < ids[i]!).toBe(true);
  });

  it('gives distinct values within one millisecond', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => ulid(1_700_000_000_000)));
    expect(ids.size).toBe(2000);
  });

  it('varies every character of the random part over all 32 values (no bit is stuck)', () => {
    const seen = Array.from({ length: 16 }, () => new Set<string>());
    for (let i = 0; i < 3000; i += 1) [...ulid(7).slice(10)].forEach((char, at) => seen[at]!.add(char));
    expect(seen.map((s) => s.size)).toEqual(Array.from({ length: 16 }, () => 32));
  });

  it('uses every Crockford character in the random part', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i += 1) for (const char of ulid(0).slice(10)) seen.add(char);
    expect([...seen].sort().join('')).toBe(CROCKFORD);
  });
});

describe('newId', () => {
  it('is the prefix, an underscore and a ULID', () => {
    expect(newId('req')).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(newId('job')).toMatch(/^job_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('passes the given time to the ULID', () => {
    const id = newId('acc', 1469918176385);
    expect(id.slice(0, 14)).toBe('acc_01ARYZ6S41');
    expect(id).toHaveLength(4 + 26);
  });

  it('sorts by time for the same prefix', () => {
    expect(newId('led', 1_700_000_000_000) < newId('led', 1_700_000_000_001)).toBe(true);
  });
});

describe('randomBase62', () => {
  it.each([0, 1, 22, 43, 64, 1000])('has exactly the requested length %i', (length) => {
    expect(randomBase62(length)).toHaveLength(length);
  });

  it('uses only base62 characters', () => {
    for (let i = 0; i < 200; i += 1) expect(randomBase62(40)).toMatch(/^[0-9A-Za-z]{40}$/);
  });

  it('gives distinct values', () => {
    const values = new Set(Array.from({ length: 5000 }, () => randomBase62(22)));
    expect(values.size).toBe(5000);
  });

  it('uses all 62 characters with no modulo bias', () => {
    const counts = new Map<string, number>();
    for (const char of randomBase62(124_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Expected 2000 each (standard deviation about 44). A plain `byte % 62` would give the first
    // eight characters about 2500.
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(1750);
      expect(count).toBeLessThan(2250);
    }
  });
});
