import type { AttemptRecord } from '../persistence/outbound-queue';
import type { SendOutcome } from './send-webhook';

/**
 * How one attempt ended: what `sendWebhook` reports, or a failure before anything was sent: `no_secret` (a
 * task callback of an account without a signing secret) or `unsendable` (the request could not be built).
 */
export type AttemptOutcome =
  | SendOutcome
  | { ok: false; reason: 'no_secret' | 'unsendable'; detail: string; durationMs: number; status?: undefined };

/** An error thrown while building an attempt, as its outcome: nothing was sent. */
export const unsendable = (error: unknown): AttemptOutcome => ({
  ok: false,
  reason: 'unsendable',
  detail: error instanceof Error ? error.message : String(error),
  durationMs: 0,
});

/** The row of attempt `n` of delivery `id`; unless it delivered, the next attempt is due at `retryAt`. */
export function attemptRecord(
  id: string,
  n: number,
  at: Date,
  outcome: AttemptOutcome,
  retryAt: Date | null,
): AttemptRecord {
  return {
    id,
    n,
    at,
    outcome: outcome.ok ? 'delivered' : outcome.reason,
    status: outcome.status,
    detail: outcome.ok ? undefined : outcome.detail.slice(0, 500),
    durationMs: Math.round(outcome.durationMs),
    delivered: outcome.ok,
    nextAttemptAt: outcome.ok ? null : retryAt,
  };
}
