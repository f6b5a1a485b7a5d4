import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { describeWithRedis, TEST_REDIS_URL } from '@gen/testing';
import { MemoryCircuitState, RedisCircuitState } from './circuit-state';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds; the elapsed milliseconds, or a failure after `withinMs`. */
async function within(withinMs: number, check: () => boolean): Promise<number> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > withinMs) throw new Error(`not within ${withinMs} ms`);
    await sleep(10);
  }
  return Date.now() - start;
}

describe('MemoryCircuitState', () => {
  it('counts a mark until its untilMs, and not after a close', async () => {
    let now = 1_000;
    const state = new MemoryCircuitState(() => now);
    expect(state.isOpen('openai-chat http://a')).toBe(false);
    await state.markOpen('openai-chat http://a', 1_500);
    expect(state.isOpen('openai-chat http://a')).toBe(true);
    expect(state.isOpen('openai-chat http://b')).toBe(false);
    now = 1_499;
    expect(state.isOpen('openai-chat http://a')).toBe(true);
    now = 1_500;
    expect(state.isOpen('openai-chat http://a')).toBe(false);
    now = 1_000;
    await state.markClosed('openai-chat http://a');
    expect(state.isOpen('openai-chat http://a')).toBe(false);
  });
});

describeWithRedis('RedisCircuitState against the real Redis', () => {
  let redis: Redis;
  let prefix: string;
  const started: RedisCircuitState[] = [];
  const instance = (): RedisCircuitState => {
    const state = new RedisCircuitState(redis, prefix);
    state.start();
    started.push(state);
    return state;
  };

  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL);
  });
  beforeEach(() => {
    prefix = `test:${randomBytes(6).toString('hex')}:`;
  });
  afterEach(async () => {
    for (const state of started.splice(0)) state.stop();
    await redis.del(`${prefix}circuits`);
  });
  afterAll(() => redis.disconnect());

  it('a mark written by one instance is seen by another within 1 s, and in one Redis hash', async () => {
    const writer = instance();
    const reader = instance();
    await reader.refresh();
    const endpoint = 'openai-chat http://127.0.0.1:9';
    const untilMs = Date.now() + 60_000;
    await writer.markOpen(endpoint, untilMs);
    expect(writer.isOpen(endpoint)).toBe(true); // its own mark at once
    expect(await within(1000, () => reader.isOpen(endpoint))).toBeLessThanOrEqual(1000);
    expect(await redis.hgetall(`${prefix}circuits`)).toEqual({ [endpoint]: String(untilMs) });
    expect(reader.isOpen('openai-chat http://127.0.0.1:10')).toBe(false);
  });

  it('a mark stops counting at its untilMs, everywhere, without a close', async () => {
    const writer = instance();
    const reader = instance();
    await writer.markOpen('e', Date.now() + 400);
    await within(1000, () => reader.isOpen('e'));
    await within(1000, () => !reader.isOpen('e') && !writer.isOpen('e'));
    expect(await redis.hget(`${prefix}circuits`, 'e')).not.toBeNull(); // expired by time, not deleted
  });

  it('a close by one instance clears the mark for the others', async () => {
    const writer = instance();
    const reader = instance();
    await writer.markOpen('e', Date.now() + 60_000);
    await within(1000, () => reader.isOpen('e'));
    await reader.markClosed('e');
    expect(reader.isOpen('e')).toBe(false);
    await within(1000, () => !writer.isOpen('e'));
    expect(await redis.hget(`${prefix}circuits`, 'e')).toBeNull();
  });

  it('stop() ends the reloads: a stopped instance no longer sees new marks', async () => {
    const writer = instance();
    const reader = instance();
    reader.stop();
    await sleep(300); // a reload in flight at stop() has landed
    await writer.markOpen('e', Date.now() + 60_000);
    await sleep(600);
    expect(reader.isOpen('e')).toBe(false);
  });
});
