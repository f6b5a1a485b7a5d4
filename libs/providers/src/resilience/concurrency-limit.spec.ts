import { ConcurrencyLimits, maxConcurrency, type Release } from './concurrency-limit';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimits', () => {
  it('defaults maxConcurrency to 32 and takes a positive integer setting', () => {
    const binding = { adapter: 'a', upstreamModel: 'm', credentials: [] };
    expect(maxConcurrency({ ...binding, settings: {} })).toBe(32);
    expect(maxConcurrency({ ...binding, settings: { maxConcurrency: 2 } })).toBe(2);
    expect(maxConcurrency({ ...binding, settings: { maxConcurrency: 0 } })).toBe(32);
  });

  it('makes calls beyond the limit wait, then admits them in arrival order', async () => {
    const limits = new ConcurrencyLimits();
    const granted: number[] = [];
    const releases: Release[] = [];
    for (let i = 0; i < 5; i += 1) {
      void limits.acquire('e', 2).then((release) => {
        granted.push(i);
        releases.push(release);
      });
    }
    await tick();
    expect(granted).toEqual([0, 1]);
    expect(limits.usage('e')).toEqual({ active: 2, waiting: 3 });
    releases[1]!();
    releases[1]!(); // a second release of the same slot frees nothing more
    await tick();
    expect(granted).toEqual([0, 1, 2]);
    expect(limits.usage('e')).toEqual({ active: 2, waiting: 2 });
    releases[0]!();
    releases[2]!();
    await tick();
    expect(granted).toEqual([0, 1, 2, 3, 4]);
    expect(limits.usage('e')).toEqual({ active: 2, waiting: 0 });
    expect(limits.usage('other')).toEqual({ active: 0, waiting: 0 });
  });

  it('an aborted waiter leaves the queue with its reason, and the slot goes to the next one', async () => {
    const limits = new ConcurrencyLimits();
    const held = await limits.acquire('e', 1);
    const controller = new AbortController();
    const aborted = limits.acquire('e', 1, controller.signal);
    const next = limits.acquire('e', 1);
    expect(limits.usage('e')).toEqual({ active: 1, waiting: 2 });
    const reason = new Error('stopping');
    controller.abort(reason);
    await expect(aborted).rejects.toBe(reason);
    expect(limits.usage('e')).toEqual({ active: 1, waiting: 1 });
    held();
    const release = await next;
    expect(limits.usage('e')).toEqual({ active: 1, waiting: 0 });
    release();
    expect(limits.usage('e')).toEqual({ active: 0, waiting: 0 });
  });

  it('run() releases when the task throws', async () => {
    const limits = new ConcurrencyLimits();
    await expect(limits.run('e', 1, undefined, () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(limits.usage('e')).toEqual({ active: 0, waiting: 0 });
    await expect(limits.run('e', 1, undefined, () => Promise.resolve(7))).resolves.toBe(7);
    expect(limits.usage('e')).toEqual({ active: 0, waiting: 0 });
  });

  it('an already aborted signal gets no slot', async () => {
    const limits = new ConcurrencyLimits();
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(limits.acquire('e', 1, controller.signal)).rejects.toThrow('gone');
    expect(limits.usage('e')).toEqual({ active: 0, waiting: 0 });
  });
});
