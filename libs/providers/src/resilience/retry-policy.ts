import type { ModelBinding } from '@gen/contracts';
import { UpstreamError } from '../chat/upstream-error';
import { integerSetting } from '../registry/upstream-adapter';

/** How a binding retries: `maxAttempts` in all (the first included), full-jitter backoff between `baseMs` and `maxMs`. */
export interface RetrySettings {
  readonly maxAttempts: number;
  readonly baseMs: number;
  readonly maxMs: number;
}

export const RETRY_DEFAULTS: RetrySettings = { maxAttempts: 3, baseMs: 250, maxMs: 8000 };

/** The binding's `maxAttempts`, `retryBaseMs` and `retryMaxMs`, each defaulting to {@link RETRY_DEFAULTS}. */
export function retrySettings(binding: ModelBinding): RetrySettings {
  return {
    maxAttempts: integerSetting(binding, 'maxAttempts', RETRY_DEFAULTS.maxAttempts),
    baseMs: integerSetting(binding, 'retryBaseMs', RETRY_DEFAULTS.baseMs),
    maxMs: integerSetting(binding, 'retryMaxMs', RETRY_DEFAULTS.maxMs),
  };
}

/** Waits `ms`; rejects with the signal's reason when it aborts. Injected so tests and benches control time. */
export type AbortableSleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** A pause the signal cuts short, rejecting with the signal's reason. */
export const abortableSleep: AbortableSleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * The wait before attempt `attempt + 1` after attempt `attempt` (1-based) failed with `error`, or undefined when
 * there is none: the error is not a retryable UpstreamError (`failed` and `rejected` are the request's own fault,
 * anything else is a bug), or the attempts are used up. Full jitter: uniform in [0, min(maxMs, baseMs·2^(n-1))),
 * so a fleet's retries spread out; a Retry-After the upstream sent is a floor, not capped.
 */
export function retryDelay(
  error: unknown,
  attempt: number,
  settings: RetrySettings,
  random: () => number,
): number | undefined {
  if (!(error instanceof UpstreamError) || error.kind !== 'retryable') return undefined;
  if (attempt >= settings.maxAttempts) return undefined;
  const ceiling = Math.min(settings.maxMs, settings.baseMs * 2 ** (attempt - 1));
  const jittered = Math.floor(random() * ceiling);
  return Math.max(jittered, error.retryAfterMs ?? 0);
}

export interface RetryRun {
  /** Epoch milliseconds: no attempt starts at or after it, nor one whose wait would end after it. */
  readonly deadlineMs: number;
  readonly signal: AbortSignal;
  /** The settings of the binding the last attempt used (attempts may move to a fallback binding). */
  readonly settings: () => RetrySettings;
  readonly now: () => number;
  readonly sleep: AbortableSleep;
  readonly random: () => number;
}

/** Thrown when the deadline passed before the first attempt could start. */
export class DeadlinePassed extends UpstreamError {
  constructor() {
    super('failed', 'the task deadline passed before an attempt could start');
  }
}

/**
 * Runs `attempt(1)`, `attempt(2)`, ... until one resolves, the last error is final (see {@link retryDelay}) or
 * the next wait would end past the deadline; rejects with that last error. An aborted signal rejects with its
 * reason, at once, also during a wait.
 */
export async function retrying<T>(attempt: (n: number) => Promise<T>, run: RetryRun): Promise<T> {
  if (run.now() >= run.deadlineMs) throw new DeadlinePassed();
  for (let n = 1; ; n += 1) {
    run.signal.throwIfAborted();
    try {
      return await attempt(n);
    } catch (error) {
      if (run.signal.aborted) throw run.signal.reason;
      const wait = retryDelay(error, n, run.settings(), run.random);
      if (wait === undefined || run.now() + wait >= run.deadlineMs) throw error;
      await run.sleep(wait, run.signal);
    }
  }
}
