import type { RateDecision, TokenBucketPolicy } from '@gen/edge';
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Redis from 'ioredis';

const root = join(__dirname, '..', '..');
const prefix = `e2e:ratelimit:${randomBytes(6).toString('hex')}:`;

interface Race {
  readonly decisions: RateDecision[];
  readonly startedAt: number;
  readonly finishedAt: number;
}

/** The next message of `type` from a worker; fails on its error report, its exit, or after `timeoutMs`. */
function reply<T>(worker: ChildProcess, type: string, timeoutMs = 20_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
    };
    const onMessage = (message: { type: string; message?: string }) => {
      if (message.type === type) {
        done();
        resolve(message as T);
      } else if (message.type === 'error') {
        done();
        reject(new Error(`rate-limit worker failed: ${message.message}`));
      }
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`rate-limit worker exited (${code}) before sending '${type}'`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`rate-limit worker sent no '${type}' within ${timeoutMs} ms`));
    }, timeoutMs);
    worker.on('message', onMessage);
    worker.on('exit', onExit);
  });
}

const allowed = (races: readonly Race[]) => races.flatMap((r) => r.decisions).filter((d) => d.allowed);
const refused = (races: readonly Race[]) => races.flatMap((r) => r.decisions).filter((d) => !d.allowed);
const remainingOfAllowed = (races: readonly Race[]) =>
  allowed(races)
    .map((d) => d.remaining)
    .sort((a, b) => a - b);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('RedisRateLimitStore shared by two processes, against the real Redis', () => {
  let redis: Redis;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    // The workers are plain Node: they load the store compiled to dist/ (a warm build takes well under a second).
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    redis = new Redis(process.env['REDIS_URL']!);
    for (let i = 0; i < 2; i += 1) {
      const worker = fork(join(__dirname, 'rate-limit-worker.js'), [], {
        env: { ...process.env, RATE_LIMIT_PREFIX: prefix },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      workers.push(worker);
    }
    await Promise.all(workers.map((w) => reply(w, 'up')));
  });

  afterAll(async () => {
    await Promise.all(
      workers.map(async (worker) => {
        if (worker.exitCode !== null || worker.signalCode !== null) return;
        const exited = new Promise((r) => worker.once('exit', r));
        worker.send({ type: 'exit' });
        const timer = setTimeout(() => worker.kill(), 5_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  /** Both workers fire `calls` takes each on one bucket as soon as they are told to, or at the instant `at`. */
  async function race(key: string, policy: TokenBucketPolicy, calls: number, at?: number): Promise<Race[]> {
    await Promise.all(
      workers.map((w) => {
        const armed = reply(w, 'armed');
        w.send({ type: 'arm', key, policy, calls });
        return armed;
      }),
    );
    const results = workers.map((w) => reply<Race>(w, 'result'));
    for (const w of workers) w.send({ type: 'go', at });
    return Promise.all(results);
  }

  it('admits exactly the burst when two processes each fire 100 takes at once, with distinct remaining counts', async () => {
    // A token every 60 s: the refill during a race of a few milliseconds is a small fraction of one token.
    const policy = { burst: 40, refillPerMinute: 1 };
    // On two cores one process is sometimes scheduled a few milliseconds after the other and races alone:
    // every round must be exact, and rounds go on until 5 of them had both processes in flight together.
    const overlapping: Race[][] = [];
    for (let round = 0; round < 20 && overlapping.length < 5; round += 1) {
      const key = `burst-${round}`;
      const races = await race(key, policy, 100);

      expect(allowed(races)).toHaveLength(policy.burst);
      // Each admitted call saw its own bucket state: remaining counts 39, 38, ..., 0, each exactly once.
      expect(remainingOfAllowed(races)).toEqual(range(policy.burst));
      for (const d of refused(races)) {
        expect(d).toMatchObject({ remaining: 0, limit: policy.burst });
        expect(d.retryAfterSeconds).toBeGreaterThanOrEqual(59);
        expect(d.retryAfterSeconds).toBeLessThanOrEqual(60);
      }
      expect(await redis.pttl(`${prefix}${key}`)).toBeGreaterThan(0);

      const together =
        Math.max(...races.map((r) => r.startedAt)) < Math.min(...races.map((r) => r.finishedAt));
      if (together) overlapping.push(races);
    }
    expect(overlapping).toHaveLength(5);
    // In those rounds tokens went to both processes (which one wins a given race is up to the scheduler).
    const admittedBy = (i: number) =>
      overlapping.reduce((sum, races) => sum + races[i]!.decisions.filter((d) => d.allowed).length, 0);
    expect(admittedBy(0)).toBeGreaterThan(0);
    expect(admittedBy(1)).toBeGreaterThan(0);
  });

  it('gives back one token a second after a drain, and never more than the burst', async () => {
    const policy = { burst: 3, refillPerMinute: 60 };
    const periodMs = 1000;
    const key = 'refill';
    const start = Date.now() + 300;

    const first = await race(key, policy, 20, start);
    expect(allowed(first)).toHaveLength(3);
    expect(remainingOfAllowed(first)).toEqual([0, 1, 2]);

    // 2.5 tokens' worth of time later (from the first race's start), 2 tokens have come back. The bounds of
    // the time Redis saw between the drain and this race must both round down to 2, or the machine was too
    // slow for the test to tell.
    const second = await race(key, policy, 20, start + 2.5 * periodMs);
    const shortest =
      Math.min(...second.map((r) => r.startedAt)) - Math.max(...first.map((r) => r.finishedAt));
    const longest = Math.max(...second.map((r) => r.finishedAt)) - Math.min(...first.map((r) => r.startedAt));
    expect([Math.floor(shortest / periodMs), Math.floor(longest / periodMs)]).toEqual([2, 2]);
    expect(allowed(second)).toHaveLength(2);
    expect(remainingOfAllowed(second)).toEqual([0, 1]);
    // Half a token is left in the bucket: the next one is at most a second away.
    for (const d of refused(second)) expect(d.retryAfterSeconds).toBe(1);

    // 4 s later, 4.5 tokens' worth of refill have accrued, but the bucket holds at most the burst.
    const third = await race(key, policy, 20, start + 6.5 * periodMs);
    expect(allowed(third)).toHaveLength(policy.burst);
    expect(remainingOfAllowed(third)).toEqual([0, 1, 2]);
  });
});
