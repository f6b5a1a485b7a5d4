import { PerModelLimiter } from './per-model-limiter';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('PerModelLimiter', () => {
  it('runs at most `limit` jobs of a model at once, in arrival order, without blocking other models', async () => {
    const limiter = new PerModelLimiter(2);
    const gates = [deferred(), deferred(), deferred()];
    const started: string[] = [];
    const jobs = gates.map((gate, i) =>
      limiter.run('a', async () => {
        started.push(`a${i}`);
        await gate.promise;
      }),
    );
    const other = limiter.run('b', async () => {
      started.push('b0');
    });
    await other;
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a0', 'a1', 'b0']);
    expect(limiter.load('a')).toEqual({ running: 2, waiting: 1 });
    gates[1]!.resolve();
    await jobs[1];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a0', 'a1', 'b0', 'a2']);
    expect(limiter.load('a')).toEqual({ running: 2, waiting: 0 });
    gates[0]!.resolve();
    gates[2]!.resolve();
    await Promise.all(jobs);
    expect(limiter.load('a')).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot when a job throws', async () => {
    const limiter = new PerModelLimiter(1);
    await expect(limiter.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limiter.run('a', () => Promise.resolve(7))).resolves.toBe(7);
    expect(limiter.load('a')).toEqual({ running: 0, waiting: 0 });
  });
});
