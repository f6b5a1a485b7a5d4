/** Time comes from an injected clock so that deadlines, expiries and schedules are testable. */
export interface Clock {
  now(): Date;
}
export const CLOCK = Symbol('Clock');

export const systemClock: Clock = { now: () => new Date() };
