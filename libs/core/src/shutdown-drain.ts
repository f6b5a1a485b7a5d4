/**
 * Work a process finishes on SIGTERM before it closes its modules, within SHUTDOWN_GRACE_MS: the text answers
 * it streams, whose reports need the event bus, the consumers and the database that closing stops.
 */
export interface Drainable {
  /**
   * Lets the work in progress finish, cuts (and reports) whatever is still running at `cutAt`, and resolves
   * once everything is reported or at `endAt` (epoch milliseconds), whichever comes first. Never rejects.
   */
  drain(cutAt: number, endAt: number): Promise<void>;
}

/**
 * The process's drains (SHUTDOWN_DRAIN): libraries add theirs, the signal handler runs them all before the
 * application closes (`drainOnSignals` in @gen/platform). Without a signal (a test closing its app), each
 * library still ends its own work when its module stops.
 */
export class ShutdownDrain {
  private readonly drains = new Set<Drainable>();

  /** Adds `drainable`; returns what removes it. */
  add(drainable: Drainable): () => void {
    this.drains.add(drainable);
    return () => this.drains.delete(drainable);
  }

  /** Runs every drain at once (see `Drainable.drain`). */
  async drain(cutAt: number, endAt: number): Promise<void> {
    await Promise.all([...this.drains].map((d) => d.drain(cutAt, endAt).catch(() => undefined)));
  }
}
export const SHUTDOWN_DRAIN = Symbol('ShutdownDrain');

/**
 * When a drain that starts at `startedAt` cuts what still runs, and when it gives up waiting for the cut work's
 * reports, so that closing the modules still fits in the grace: the last three seconds of a long grace are left
 * for the cut (one) and the close (two); of a short one, the last 30 % (10 % and 20 %).
 */
export function drainSchedule(startedAt: number, graceMs: number): { cutAt: number; endAt: number } {
  return {
    cutAt: startedAt + Math.max(Math.floor(graceMs * 0.7), graceMs - 3000),
    endAt: startedAt + Math.max(Math.floor(graceMs * 0.8), graceMs - 2000),
  };
}
