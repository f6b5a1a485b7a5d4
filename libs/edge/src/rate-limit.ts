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
}
export const RATE_LIMIT_STORE = Symbol('RateLimitStore');

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/** Token buckets in process memory. Token counts are small integers scaled by refill math, never money. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, Bucket>();

  take(key: string, policy: TokenBucketPolicy, nowMs: number): RateDecision {
    const perMs = policy.refillPerMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: policy.burst, updatedMs: nowMs };
    // A clock that steps back never takes tokens away; 1e-9 absorbs float drift in the refill sum.
    const elapsed = Math.max(0, nowMs - bucket.updatedMs);
    bucket.tokens = Math.min(policy.burst, bucket.tokens + elapsed * perMs);
    bucket.updatedMs = Math.max(bucket.updatedMs, nowMs);
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1 - 1e-9) {
      bucket.tokens = Math.max(0, bucket.tokens - 1);
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
}
