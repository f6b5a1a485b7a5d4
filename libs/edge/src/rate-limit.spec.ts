import { MemoryRateLimitStore, type TokenBucketPolicy } from './rate-limit';

/** Burst 3, one token per second. */
const PER_SECOND: TokenBucketPolicy = { burst: 3, refillPerMinute: 60 };
/** Burst 2, one token every 10 seconds. */
const SLOW: TokenBucketPolicy = { burst: 2, refillPerMinute: 6 };

const T0 = 1_700_000_000_000;

describe('MemoryRateLimitStore', () => {
  let store: MemoryRateLimitStore;
  beforeEach(() => {
    store = new MemoryRateLimitStore();
  });

  it('allows a full burst at once, counting down remaining, then refuses', () => {
    expect(store.take('k', PER_SECOND, T0)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      retryAfterSeconds: 0,
    });
    expect(store.take('k', PER_SECOND, T0)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 1,
      retryAfterSeconds: 0,
    });
    expect(store.take('k', PER_SECOND, T0)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 0,
      retryAfterSeconds: 0,
    });
    expect(store.take('k', PER_SECOND, T0)).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      retryAfterSeconds: 1,
    });
  });

  it('a bucket of size 1 allows exactly one request', () => {
    const policy = { burst: 1, refillPerMinute: 1 };
    expect(store.take('k', policy, T0).allowed).toBe(true);
    expect(store.take('k', policy, T0)).toEqual({
      allowed: false,
      limit: 1,
      remaining: 0,
      retryAfterSeconds: 60,
    });
  });

  it('refills one token per refill interval', () => {
    for (let i = 0; i < 3; i += 1) store.take('k', PER_SECOND, T0);
    expect(store.take('k', PER_SECOND, T0 + 999).allowed).toBe(false);
    expect(store.take('k', PER_SECOND, T0 + 1000)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 0,
      retryAfterSeconds: 0,
    });
    expect(store.take('k', PER_SECOND, T0 + 1000).allowed).toBe(false);
    expect(store.take('k', PER_SECOND, T0 + 3000)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('does not consume a token on a refused request', () => {
    for (let i = 0; i < 3; i += 1) store.take('k', PER_SECOND, T0);
    for (let i = 0; i < 5; i += 1) expect(store.take('k', PER_SECOND, T0 + 500).allowed).toBe(false);
    expect(store.take('k', PER_SECOND, T0 + 1000).allowed).toBe(true);
  });

  it('never refills beyond the burst', () => {
    for (let i = 0; i < 3; i += 1) store.take('k', PER_SECOND, T0);
    const later = T0 + 3_600_000;
    expect(store.take('k', PER_SECOND, later).remaining).toBe(2);
    expect(store.take('k', PER_SECOND, later).remaining).toBe(1);
    expect(store.take('k', PER_SECOND, later).remaining).toBe(0);
    expect(store.take('k', PER_SECOND, later).allowed).toBe(false);
  });

  it('reports whole remaining tokens, rounded down', () => {
    for (let i = 0; i < 3; i += 1) store.take('k', PER_SECOND, T0);
    // 2.5 tokens after 2.5 s; one taken leaves 1.5.
    expect(store.take('k', PER_SECOND, T0 + 2500)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('gives the whole seconds until the next token as retryAfterSeconds', () => {
    store.take('k', SLOW, T0);
    store.take('k', SLOW, T0);
    expect(store.take('k', SLOW, T0)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      retryAfterSeconds: 10,
    });
    // 0.25 token after 2.5 s; 0.75 token missing is 7.5 s, rounded up to 8.
    expect(store.take('k', SLOW, T0 + 2500).retryAfterSeconds).toBe(8);
    // 0.9 token after 9 s: 1 s to go.
    expect(store.take('k', SLOW, T0 + 9000).retryAfterSeconds).toBe(1);
    // Just short of a token still says at least 1 second, never 0.
    expect(store.take('k', SLOW, T0 + 9999)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      retryAfterSeconds: 1,
    });
    expect(store.take('k', SLOW, T0 + 10_000)).toMatchObject({ allowed: true, retryAfterSeconds: 0 });
  });

  it('keeps independent buckets per key', () => {
    for (let i = 0; i < 3; i += 1) store.take('key:a', PER_SECOND, T0);
    expect(store.take('key:a', PER_SECOND, T0).allowed).toBe(false);
    expect(store.take('key:b', PER_SECOND, T0)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      retryAfterSeconds: 0,
    });
    expect(store.take('key:a', PER_SECOND, T0).allowed).toBe(false);
  });

  it('keeps independent buckets per store instance', () => {
    for (let i = 0; i < 3; i += 1) store.take('k', PER_SECOND, T0);
    expect(new MemoryRateLimitStore().take('k', PER_SECOND, T0).allowed).toBe(true);
  });

  it('peek tells what take would answer, without taking a token', () => {
    expect(store.peek('k', SLOW, T0)).toEqual({
      allowed: true,
      limit: 2,
      remaining: 2,
      retryAfterSeconds: 0,
    });
    store.take('k', SLOW, T0);
    expect(store.peek('k', SLOW, T0)).toMatchObject({ allowed: true, remaining: 1 });
    expect(store.peek('k', SLOW, T0)).toMatchObject({ allowed: true, remaining: 1 });
    store.take('k', SLOW, T0);
    expect(store.peek('k', SLOW, T0 + 4000)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      retryAfterSeconds: 6,
    });
    // It refills as take does.
    expect(store.peek('k', SLOW, T0 + 10_000)).toMatchObject({ allowed: true, remaining: 1 });
    expect(store.take('k', SLOW, T0 + 10_000)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('forgets the buckets that are full again, now and then: a full bucket and none answer the same', () => {
    const buckets = (store as unknown as { buckets: Map<string, unknown> }).buckets;
    // A look leaves nothing behind.
    store.peek('looked-at', PER_SECOND, T0);
    expect(buckets.has('looked-at')).toBe(false);
    store.take('busy', PER_SECOND, T0);
    store.take('busy', PER_SECOND, T0);
    store.take('busy', PER_SECOND, T0);
    // Thousands of addresses, one request each: each bucket is full again a second later.
    for (let i = 0; i < 4094; i += 1) store.take(`ip:${i}`, PER_SECOND, T0 + (i < 4000 ? 0 : 2000));
    expect(buckets.size).toBe(4095);
    // The 4096th new bucket sweeps, at 2.5 s: the first 4000 addresses were full at 1 s; the last 94 and
    // 'busy' are full at 3 s, 'late' at 3.5 s.
    store.take('late', PER_SECOND, T0 + 2500);
    expect(buckets.has('ip:0')).toBe(false);
    expect(buckets.has('ip:4000')).toBe(true);
    expect(buckets.has('busy')).toBe(true);
    expect(buckets.size).toBe(94 + 2);
    expect(store.take('busy', PER_SECOND, T0 + 2500)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('sustains the refill rate over time: 600 per minute for a minute after the burst', () => {
    const policy = { burst: 120, refillPerMinute: 600 };
    let allowed = 0;
    for (let ms = 0; ms < 60_000; ms += 10) if (store.take('k', policy, T0 + ms).allowed) allowed += 1;
    // The burst plus about one refill per 100 ms; float rounding may cost at most a few.
    expect(allowed).toBeGreaterThanOrEqual(120 + 600 - 5);
    expect(allowed).toBeLessThanOrEqual(120 + 600);
  });
});

describe('MemoryRateLimitStore edge cases (regression)', () => {
  it('refills exactly one token after exactly one interval despite float drift', () => {
    const store = new MemoryRateLimitStore();
    const policy: TokenBucketPolicy = { burst: 1, refillPerMinute: 600 };
    expect(store.take('k', policy, 0).allowed).toBe(true);
    for (let t = 10; t < 100; t += 10) expect(store.take('k', policy, t).allowed).toBe(false);
    expect(store.take('k', policy, 100).allowed).toBe(true); // ten refills of 0.1 sum to 0.9999999999999999: still one token
  });

  it('never removes tokens when the clock steps back', () => {
    const store = new MemoryRateLimitStore();
    const policy: TokenBucketPolicy = { burst: 5, refillPerMinute: 60 };
    expect(store.take('k', policy, 10_000).remaining).toBe(4);
    expect(store.take('k', policy, 5_000).remaining).toBe(3);
  });
});
