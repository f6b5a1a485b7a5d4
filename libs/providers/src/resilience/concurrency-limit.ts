import type { ModelBinding } from '@gen/contracts';
import { integerSetting } from '../registry/upstream-adapter';

/** Calls in flight to one endpoint when its binding does not say (`maxConcurrency`). */
export const DEFAULT_MAX_CONCURRENCY = 32;

export function maxConcurrency(binding: ModelBinding): number {
  return integerSetting(binding, 'maxConcurrency', DEFAULT_MAX_CONCURRENCY);
}

/** Gives the slot back; a second call does nothing, so a release in both a catch and a finally cannot leak. */
export type Release = () => void;

interface Waiter {
  grant: (release: Release) => void;
}

/** One endpoint's slots: a FIFO queue, a freed slot passes straight to the oldest waiter (no barging). */
class Semaphore {
  active = 0;
  readonly queue: Waiter[] = [];

  constructor(public max: number) {}

  acquire(signal: AbortSignal | undefined): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.active < this.max && this.queue.length === 0) {
      this.active += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise<Release>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      this.queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      this.admit();
    };
  }

  /** Hands free slots to the oldest waiters (after a release, or when the limit grew). */
  admit(): void {
    while (this.active < this.max && this.queue.length > 0) {
      const next = this.queue.shift()!;
      this.active += 1;
      next.grant(this.releaser());
    }
  }
}

/**
 * Per-endpoint limits on calls in flight. Calls beyond the limit wait their turn (in arrival order) rather than
 * fail: the upstream's own rate of service decides the pace. A waiter whose signal aborts leaves the queue and
 * rejects with the signal's reason.
 */
export class ConcurrencyLimits {
  private readonly endpoints = new Map<string, Semaphore>();

  /** A slot of `endpoint` (at most `max` at once; the latest `max` given applies). */
  acquire(endpoint: string, max: number, signal?: AbortSignal): Promise<Release> {
    let semaphore = this.endpoints.get(endpoint);
    if (!semaphore) {
      semaphore = new Semaphore(max);
      this.endpoints.set(endpoint, semaphore);
    } else {
      semaphore.max = max;
      semaphore.admit();
    }
    return semaphore.acquire(signal);
  }

  /** Runs `task` holding a slot, released however it ends. */
  async run<T>(
    endpoint: string,
    max: number,
    signal: AbortSignal | undefined,
    task: () => Promise<T>,
  ): Promise<T> {
    const release = await this.acquire(endpoint, max, signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  /** Slots held and calls waiting, for metrics and tests. */
  usage(endpoint: string): { active: number; waiting: number } {
    const semaphore = this.endpoints.get(endpoint);
    return { active: semaphore?.active ?? 0, waiting: semaphore?.queue.length ?? 0 };
  }
}
