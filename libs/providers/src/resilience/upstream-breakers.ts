import CircuitBreaker from 'opossum';
import { endpointKey, type CircuitStatePort, type ModelBinding } from '@gen/contracts';
import type { Logger } from '@gen/core';
import { UpstreamError } from '../chat/upstream-error';
import { integerSetting } from '../registry/upstream-adapter';

/** One endpoint's breaker, from its binding's settings. */
export interface BreakerSettings {
  /** `timeoutMs`: longest an attempt may take (a media generation; a chat stream's first event). */
  readonly timeoutMs: number;
  /** `breakerErrorPercent`: the failure share of the window above which the breaker opens. */
  readonly errorPercent: number;
  /** `breakerVolume`: calls in the window before the breaker may open at all. */
  readonly volume: number;
  /** `breakerWindowMs`: the rolling window the share is measured over. */
  readonly windowMs: number;
  /** `breakerResetMs`: how long it stays open before one probe is let through. */
  readonly resetMs: number;
}

export const BREAKER_DEFAULTS: BreakerSettings = {
  timeoutMs: 120_000,
  errorPercent: 50,
  volume: 5,
  windowMs: 10_000,
  resetMs: 30_000,
};

export function breakerSettings(binding: ModelBinding): BreakerSettings {
  return {
    timeoutMs: integerSetting(binding, 'timeoutMs', BREAKER_DEFAULTS.timeoutMs),
    errorPercent: integerSetting(binding, 'breakerErrorPercent', BREAKER_DEFAULTS.errorPercent),
    volume: integerSetting(binding, 'breakerVolume', BREAKER_DEFAULTS.volume),
    windowMs: integerSetting(binding, 'breakerWindowMs', BREAKER_DEFAULTS.windowMs),
    resetMs: integerSetting(binding, 'breakerResetMs', BREAKER_DEFAULTS.resetMs),
  };
}

type Run = () => Promise<unknown>;

/** A breaker's state: calls pass (closed), are refused (open), or one probe may pass (half_open). */
export type CircuitState = 'closed' | 'open' | 'half_open';
export const CIRCUIT_STATES: readonly CircuitState[] = ['closed', 'open', 'half_open'];

interface Endpoint {
  readonly breaker: CircuitBreaker<[Run], unknown>;
  readonly settings: BreakerSettings;
}

export interface UpstreamBreakersOptions {
  logger?: Logger;
  now?: () => number;
}

/**
 * One opossum breaker per upstream endpoint (`endpointKey`): every model served by a server shares its
 * breaker, built from the settings of the first binding seen for it. Only what says the server is unwell
 * counts as a failure: retryable UpstreamErrors (429, 5xx, resets, cut streams) and attempts that outlive
 * `timeoutMs`. A `failed` or `rejected` answer is the request's fault and counts as the server answering.
 * Transitions are reported to the shared circuit state, an open mark lasting until the breaker would probe.
 */
/**
 * A controller for one attempt that aborts when `signal` does (with its reason), and `unlink` to stop
 * listening once the attempt is over. A listener rather than `AbortSignal.any`: this is every call's path, and a
 * composite signal costs a tracked dependent signal per call (measured: bench/providers).
 */
export function linkedController(signal: AbortSignal): { controller: AbortController; unlink: () => void } {
  const controller = new AbortController();
  const forward = (): void => controller.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  return { controller, unlink: () => signal.removeEventListener('abort', forward) };
}

export class UpstreamBreakers {
  private readonly endpoints = new Map<string, Endpoint>();
  private readonly now: () => number;

  constructor(
    private readonly circuits: CircuitStatePort,
    private readonly options: UpstreamBreakersOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Runs one attempt through the endpoint's breaker. `attempt` is the attempt's own controller, linked by the
   * caller to its signal (see `linkedController`): it is aborted here, with a retryable UpstreamError as the
   * reason, when the attempt outlives `timeoutMs`, and the attempt then rejects with that error at once. An open
   * breaker rejects without calling `action`, with a retryable UpstreamError.
   */
  async fire<T>(
    binding: ModelBinding,
    attempt: AbortController,
    action: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const { breaker, settings } = this.endpoint(binding);
    const controller = attempt;
    try {
      return (await breaker.fire(() => action(controller.signal))) as T;
    } catch (error) {
      if (isTimeout(error)) {
        const timeout = new UpstreamError(
          'retryable',
          `the upstream did not answer within ${settings.timeoutMs} ms`,
        );
        controller.abort(timeout);
        throw timeout;
      }
      if (CircuitBreaker.isOurError(error as Error)) {
        throw new UpstreamError('retryable', 'the upstream circuit is open');
      }
      throw error;
    }
  }

  /** The breaker is open (tripped and not yet probing): what `canRun` reports. */
  isOpen(binding: ModelBinding): boolean {
    return this.endpoints.get(endpointKey(binding))?.breaker.opened ?? false;
  }

  /** A call would go through now: closed, or half-open with its one probe not yet taken. */
  admits(binding: ModelBinding): boolean {
    const breaker = this.endpoints.get(endpointKey(binding))?.breaker;
    return !breaker || breaker.closed || breaker.pendingClose;
  }

  /** The state of each endpoint's breaker: the endpoints this process has called (a breaker is made on the first call). */
  states(): { endpoint: string; state: CircuitState }[] {
    return [...this.endpoints].map(([endpoint, { breaker }]) => ({
      endpoint,
      state: breaker.opened ? 'open' : breaker.halfOpen ? 'half_open' : 'closed',
    }));
  }

  /** Stops every breaker's timers; for a process (or a test) that is finishing. */
  shutdown(): void {
    for (const { breaker } of this.endpoints.values()) breaker.shutdown();
    this.endpoints.clear();
  }

  private endpoint(binding: ModelBinding): Endpoint {
    const key = endpointKey(binding);
    let endpoint = this.endpoints.get(key);
    if (!endpoint) {
      const settings = breakerSettings(binding);
      endpoint = { breaker: this.breaker(key, settings), settings };
      this.endpoints.set(key, endpoint);
    }
    return endpoint;
  }

  private breaker(key: string, settings: BreakerSettings): CircuitBreaker<[Run], unknown> {
    const breaker = new CircuitBreaker<[Run], unknown>((run: Run) => run(), {
      name: key,
      timeout: settings.timeoutMs,
      errorThresholdPercentage: settings.errorPercent,
      volumeThreshold: settings.volume,
      rollingCountTimeout: settings.windowMs,
      resetTimeout: settings.resetMs,
      enableSnapshots: false,
      // true = not a failure of the upstream
      errorFilter: (error: unknown) => !countsAgainstUpstream(error),
    });
    const logger = this.options.logger;
    breaker.on('open', () => {
      logger?.warn({ endpoint: key, resetMs: settings.resetMs }, 'upstream circuit opened');
      this.circuits
        .markOpen(key, this.now() + settings.resetMs)
        .catch((error: unknown) => logger?.error({ err: error, endpoint: key }, 'circuit open not recorded'));
    });
    breaker.on('halfOpen', () => logger?.info({ endpoint: key }, 'upstream circuit half-open: one probe'));
    breaker.on('close', () => {
      logger?.info({ endpoint: key }, 'upstream circuit closed');
      this.circuits
        .markClosed(key)
        .catch((error: unknown) =>
          logger?.error({ err: error, endpoint: key }, 'circuit close not recorded'),
        );
    });
    return breaker;
  }
}

function isTimeout(error: unknown): boolean {
  return (
    error instanceof Error &&
    CircuitBreaker.isOurError(error) &&
    (error as Error & { code?: string }).code === 'ETIMEDOUT'
  );
}

function countsAgainstUpstream(error: unknown): boolean {
  return isTimeout(error) || (error instanceof UpstreamError && error.kind === 'retryable');
}
