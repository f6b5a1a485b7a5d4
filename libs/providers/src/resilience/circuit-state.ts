import type { CircuitStatePort } from '@gen/contracts';
import type { Logger } from '@gen/core';
import type Redis from 'ioredis';

/**
 * The circuits of one process only: a single runner, the tests and the benches. A mark counts while
 * `now() < untilMs`, so a breaker that never reports its close still stops counting when it would probe.
 */
export class MemoryCircuitState implements CircuitStatePort {
  private readonly open = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  markOpen(endpoint: string, untilMs: number): Promise<void> {
    this.open.set(endpoint, untilMs);
    return Promise.resolve();
  }

  markClosed(endpoint: string): Promise<void> {
    this.open.delete(endpoint);
    return Promise.resolve();
  }

  isOpen(endpoint: string): boolean {
    return isCounted(this.open.get(endpoint), this.now());
  }
}

export interface RedisCircuitStateOptions {
  /** How often the local copy is reloaded from Redis; 250 ms by default. */
  refreshMs?: number;
  logger?: Logger;
  now?: () => number;
}

/**
 * The circuits of a fleet, in one Redis hash `${prefix}circuits` (field: endpoint key, value: untilMs). Writes
 * go to Redis and to the local copy at once; `isOpen` is answered from the local copy, which `start()` reloads
 * every 250 ms, so another process's mark is seen within that interval (plus the round trip). A Redis outage
 * keeps the last copy, whose marks still expire on their own.
 */
export class RedisCircuitState implements CircuitStatePort {
  private readonly key: string;
  private readonly refreshMs: number;
  private readonly now: () => number;
  private local = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private refreshing: Promise<void> | undefined;
  /** Bumped by every local write: a reload that started before a write does not overwrite it. */
  private writes = 0;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly options: RedisCircuitStateOptions = {},
  ) {
    this.key = `${prefix}circuits`;
    this.refreshMs = options.refreshMs ?? 250;
    this.now = options.now ?? Date.now;
  }

  async markOpen(endpoint: string, untilMs: number): Promise<void> {
    this.writes += 1;
    this.local.set(endpoint, untilMs);
    await this.redis.hset(this.key, endpoint, String(untilMs));
  }

  async markClosed(endpoint: string): Promise<void> {
    this.writes += 1;
    this.local.delete(endpoint);
    await this.redis.hdel(this.key, endpoint);
  }

  /** The first read starts the reloads: a process that never asks (a billing worker) never polls Redis. */
  isOpen(endpoint: string): boolean {
    if (!this.timer && !this.stopped) this.start();
    return isCounted(this.local.get(endpoint), this.now());
  }

  /** Loads the hash now and then every `refreshMs`; the timer does not keep the process alive. */
  start(): void {
    if (this.timer) return;
    this.stopped = false;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Reloads the local copy from Redis (one at a time); a failure is logged and the last copy kept. */
  refresh(): Promise<void> {
    this.refreshing ??= this.load().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async load(): Promise<void> {
    const writesBefore = this.writes;
    try {
      const fields = await this.redis.hgetall(this.key);
      if (this.writes !== writesBefore) return; // a local write raced this read: the next reload has it
      const next = new Map<string, number>();
      for (const [endpoint, value] of Object.entries(fields)) {
        const untilMs = Number(value);
        if (Number.isFinite(untilMs)) next.set(endpoint, untilMs);
      }
      this.local = next;
    } catch (error) {
      this.options.logger?.warn({ err: error, key: this.key }, 'circuit state not reloaded from Redis');
    }
  }
}

function isCounted(untilMs: number | undefined, now: number): boolean {
  return untilMs !== undefined && now < untilMs;
}
