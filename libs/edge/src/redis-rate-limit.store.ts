import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import type { Redis } from 'ioredis';
import type { RateDecision, RateLimitStore, TokenBucketPolicy } from './rate-limit';

/**
 * One atomic token-bucket step in Redis. Integers only: a token is 60000 units and a bucket refilling R tokens
 * a minute gains R units a millisecond, so the refill is exact. Time is the Redis server's, so processes with
 * skewed clocks share one bucket fairly. ARGV[3] is the number of tokens to take when one is there: 1, or 0 to
 * only look (a look at a bucket that does not exist writes nothing). Returns {allowed, remaining tokens,
 * retry-after seconds}.
 */
const TAKE = `
local burst = tonumber(ARGV[1])
local per_minute = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local unit = 60000
local capacity = burst * unit
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'units', 'at')
local units = tonumber(state[1])
local at = tonumber(state[2])
if units == nil then
  if cost == 0 then
    return { 1, burst, 0 }
  end
  units = capacity
  at = now
end
if now > at then
  units = math.min(capacity, units + (now - at) * per_minute)
  at = now
end
local allowed = 0
if units >= unit then
  units = units - cost * unit
  allowed = 1
end
redis.call('HSET', KEYS[1], 'units', units, 'at', at)
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - units) / per_minute) + 1000)
local retry = 0
if allowed == 0 then
  retry = math.max(1, math.ceil((unit - units) / per_minute / 1000))
end
return { allowed, math.floor(units / unit), retry }
`;

/** The namespace of the buckets' keys, after the deployment's REDIS_KEY_PREFIX. */
export const RATE_LIMIT_KEY_PREFIX = 'ratelimit:';

/**
 * The rate-limit store of the distributed mode: buckets shared by every process through Redis. Every key is
 * `prefix` + the bucket's name (the app passes REDIS_KEY_PREFIX + RATE_LIMIT_KEY_PREFIX).
 */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = RATE_LIMIT_KEY_PREFIX,
  ) {
    this.redis.defineCommand('takeToken', { numberOfKeys: 1, lua: TAKE });
  }

  take(key: string, policy: TokenBucketPolicy): Promise<RateDecision> {
    return this.step(key, policy, 1);
  }

  peek(key: string, policy: TokenBucketPolicy): Promise<RateDecision> {
    return this.step(key, policy, 0);
  }

  private async step(key: string, policy: TokenBucketPolicy, cost: 0 | 1): Promise<RateDecision> {
    let reply: [number, number, number];
    try {
      const command = (
        this.redis as unknown as {
          takeToken(k: string, b: number, r: number, c: number): Promise<[number, number, number]>;
        }
      ).takeToken;
      reply = await command.call(
        this.redis,
        `${this.prefix}${key}`,
        policy.burst,
        policy.refillPerMinute,
        cost,
      );
    } catch {
      // Without its store the limiter cannot tell: it refuses rather than letting everything through.
      throw new DomainError(
        BusinessCode.TemporarilyUnavailable,
        'server.unavailable',
        {},
        { 'retry-after': '1' },
      );
    }
    const [allowed, remaining, retryAfterSeconds] = reply;
    return { allowed: allowed === 1, limit: policy.burst, remaining, retryAfterSeconds };
  }
}
