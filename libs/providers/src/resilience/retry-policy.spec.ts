import type { ModelBinding } from '@gen/contracts';
import { UpstreamError } from '../chat/upstream-error';
import { DeadlinePassed, RETRY_DEFAULTS, retryDelay, retrying, retrySettings } from './retry-policy';

const binding = (settings: Record<string, unknown>): ModelBinding => ({
  adapter: 'a',
  upstreamModel: 'm',
  credentials: [],
  settings,
});
const retryable = (retryAfterMs?: number): UpstreamError =>
  new UpstreamError('retryable', 'the upstream answered 503', { status: 503, retryAfterMs });

describe('retrySettings', () => {
  it('defaults to 3 attempts, 250 ms base, 8000 ms cap; positive integer settings override', () => {
    expect(retrySettings(binding({}))).toEqual({ maxAttempts: 3, baseMs: 250, maxMs: 8000 });
    expect(retrySettings(binding({ maxAttempts: 5, retryBaseMs: 10, retryMaxMs: 40 }))).toEqual({
      maxAttempts: 5,
      baseMs: 10,
      maxMs: 40,
    });
    expect(retrySettings(binding({ maxAttempts: '5', retryBaseMs: -1, retryMaxMs: 1.5 }))).toEqual(
      RETRY_DEFAULTS,
    );
  });
});

describe('retryDelay', () => {
  const settings = { maxAttempts: 10, baseMs: 250, maxMs: 8000 };

  it('is full jitter under an exponential ceiling capped at maxMs', () => {
    const almostOne = (): number => 0.9999;
    expect([1, 2, 3, 4, 5, 6, 7, 9].map((n) => retryDelay(retryable(), n, settings, almostOne))).toEqual([
      249, 499, 999, 1999, 3999, 7999, 7999, 7999,
    ]);
    expect(retryDelay(retryable(), 3, settings, () => 0)).toBe(0);
    expect(retryDelay(retryable(), 3, settings, () => 0.5)).toBe(500);
  });

  it('waits at least the Retry-After, even above the cap', () => {
    expect(retryDelay(retryable(1000), 1, settings, () => 0)).toBe(1000);
    expect(retryDelay(retryable(20_000), 1, settings, () => 0.9999)).toBe(20_000);
    expect(retryDelay(retryable(10), 3, settings, () => 0.5)).toBe(500);
  });

  it('never retries failed, rejected or foreign errors, nor past maxAttempts', () => {
    const random = (): number => 0.5;
    expect(
      retryDelay(new UpstreamError('failed', 'x', { status: 400 }), 1, settings, random),
    ).toBeUndefined();
    expect(
      retryDelay(new UpstreamError('rejected', 'x', { status: 400 }), 1, settings, random),
    ).toBeUndefined();
    expect(retryDelay(new TypeError('bug'), 1, settings, random)).toBeUndefined();
    expect(retryDelay(retryable(), 9, settings, random)).toBe(Math.floor(0.5 * 8000));
    expect(retryDelay(retryable(), 10, settings, random)).toBeUndefined();
  });
});

describe('retrying', () => {
  /** A virtual clock: sleeping advances it and is recorded. */
  function clock(start = 0) {
    const state = { now: start, waits: [] as number[] };
    return {
      state,
      now: () => state.now,
      sleep: (ms: number, signal: AbortSignal) => {
        signal.throwIfAborted();
        state.waits.push(ms);
        state.now += ms;
        return Promise.resolve();
      },
    };
  }

  it('retries retryable errors with the backoff until one attempt succeeds', async () => {
    const c = clock();
    const attempts: number[] = [];
    const result = await retrying(
      (n) => {
        attempts.push(n);
        return n < 3 ? Promise.reject(retryable()) : Promise.resolve('ok');
      },
      {
        deadlineMs: 60_000,
        signal: new AbortController().signal,
        settings: () => RETRY_DEFAULTS,
        random: () => 0.5,
        ...c,
      },
    );
    expect(result).toBe('ok');
    expect(attempts).toEqual([1, 2, 3]);
    expect(c.state.waits).toEqual([125, 250]);
  });

  it('gives up with the last error after maxAttempts', async () => {
    const c = clock();
    const errors = [retryable(), retryable(), retryable()];
    let n = 0;
    const run = retrying(() => Promise.reject(errors[n++]!), {
      deadlineMs: 60_000,
      signal: new AbortController().signal,
      settings: () => RETRY_DEFAULTS,
      random: () => 0,
      ...c,
    });
    await expect(run).rejects.toBe(errors[2]);
    expect(n).toBe(3);
  });

  it('starts no attempt whose wait would end past the deadline', async () => {
    const c = clock(1000);
    let calls = 0;
    const run = retrying(
      () => {
        calls += 1;
        return Promise.reject(retryable(5000));
      },
      {
        deadlineMs: 5999,
        signal: new AbortController().signal,
        settings: () => RETRY_DEFAULTS,
        random: () => 0,
        ...c,
      },
    );
    await expect(run).rejects.toBeInstanceOf(UpstreamError);
    expect(calls).toBe(1);
    expect(c.state.waits).toEqual([]);
  });

  it('starts nothing once the deadline has passed', async () => {
    const c = clock(5000);
    let calls = 0;
    const run = retrying(
      () => {
        calls += 1;
        return Promise.resolve('ok');
      },
      {
        deadlineMs: 5000,
        signal: new AbortController().signal,
        settings: () => RETRY_DEFAULTS,
        random: () => 0,
        ...c,
      },
    );
    await expect(run).rejects.toBeInstanceOf(DeadlinePassed);
    expect(calls).toBe(0);
  });

  it('rejects with the abort reason, unmapped, and starts nothing more', async () => {
    const controller = new AbortController();
    const reason = new Error('runner stopping');
    let calls = 0;
    const run = retrying(
      () => {
        calls += 1;
        controller.abort(reason);
        return Promise.reject(retryable());
      },
      {
        deadlineMs: 60_000,
        signal: controller.signal,
        settings: () => RETRY_DEFAULTS,
        random: () => 0,
        ...clock(),
      },
    );
    await expect(run).rejects.toBe(reason);
    expect(calls).toBe(1);
  });
});
