/** Outcome of taking one token from a bucket. */
export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds until a token is available (0 when allowed). */
  readonly retryAfterSeconds: number;
}

export interface TokenBucketPolicy {
  readonly burst: number;
  readonly refillPerMinute: number;
}

/** Rate-limit store port: memory here, Redis (atomic Lua bucket) in distributed mode. */
export interface RateLimitStore {
  take(key: string, policy: TokenBucketPolicy, nowMs: number): Promise<RateDecision> | RateDecision;
  /**
   * What `take` would answer now, without taking a token: for a bucket that only some outcomes draw on (failed
   * admin-token attempts), checked before the request is served.
   */
  peek(key: string, policy: TokenBucketPolicy, nowMs: number): Promise<RateDecision> | RateDecision;
}
export const RATE_LIMIT_STORE = Symbol('RateLimitStore');

interface Bucket {
  tokens: number;
  updatedMs: number;
  /** When the bucket is full again: from then on it is the same as no bucket at all. */
  fullAtMs: number;
}

/** New buckets between two sweeps of the full ones. */
const SWEEP_EVERY = 4096;

/**
 * Token buckets in process memory. Token counts are small integers scaled by refill math, never money. Buckets
 * named by what a client chooses (its address, before any credential) would pile up: every SWEEP_EVERY new
 * buckets, those full again are dropped (a full bucket and no bucket answer the same).
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, Bucket>();
  private created = 0;

  take(key: string, policy: TokenBucketPolicy, nowMs: number): RateDecision {
    return this.step(key, policy, nowMs, 1);
  }

  peek(key: string, policy: TokenBucketPolicy, nowMs: number): RateDecision {
    return this.step(key, policy, nowMs, 0);
  }

  /** Refills the bucket to `nowMs`, then takes `cost` (0 or 1) tokens if one is there. */
  private step(key: string, policy: TokenBucketPolicy, nowMs: number, cost: 0 | 1): RateDecision {
    const perMs = policy.refillPerMinute / 60_000;
    const known = this.buckets.get(key);
    const bucket = known ?? { tokens: policy.burst, updatedMs: nowMs, fullAtMs: nowMs };
    // A clock that steps back never takes tokens away; 1e-9 absorbs float drift in the refill sum.
    const elapsed = Math.max(0, nowMs - bucket.updatedMs);
    bucket.tokens = Math.min(policy.burst, bucket.tokens + elapsed * perMs);
    bucket.updatedMs = Math.max(bucket.updatedMs, nowMs);
    if (bucket.tokens >= 1 - 1e-9) {
      bucket.tokens = Math.max(0, bucket.tokens - cost);
      bucket.fullAtMs = bucket.updatedMs + (policy.burst - bucket.tokens) / perMs;
      // A look at a bucket nobody took from leaves nothing behind.
      if (!known && cost > 0) this.add(key, bucket, nowMs);
      return {
        allowed: true,
        limit: policy.burst,
        remaining: Math.floor(bucket.tokens),
        retryAfterSeconds: 0,
      };
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
    return { allowed: false, limit: policy.burst, remaining: 0, retryAfterSeconds };
  }

  private add(key: string, bucket: Bucket, nowMs: number): void {
    this.buckets.set(key, bucket);
    this.created += 1;
    if (this.created < SWEEP_EVERY) return;
    this.created = 0;
    for (const [name, held] of this.buckets) if (held.fullAtMs <= nowMs) this.buckets.delete(name);
  }
}
