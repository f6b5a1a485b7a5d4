/**
 * `retryable`: 429, 5xx, connection resets, timeouts and streams cut before their end; worth another attempt.
 * `rejected`: the upstream refused the content (content policy, safety); never retried, becomes content_rejected.
 * `failed`: any other 4xx or a response that cannot be read; never retried, becomes upstream_failed.
 */
export type UpstreamErrorKind = 'retryable' | 'rejected' | 'failed';

export interface UpstreamErrorDetails {
  status?: number;
  retryAfterMs?: number;
  /** The upstream's own text (error body, message), for the log only: never shown to the caller. */
  upstreamText?: string;
}

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly upstreamText: string | undefined;

  constructor(
    readonly kind: UpstreamErrorKind,
    message: string,
    details: UpstreamErrorDetails = {},
  ) {
    super(message);
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.upstreamText = details.upstreamText;
  }
}

/** Milliseconds from `retry-after-ms` or `Retry-After` (delta seconds or an HTTP date); undefined otherwise. */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Milliseconds from a Google RetryInfo `retryDelay` ("27s", "1.5s") in an error body; undefined otherwise. */
export function retryDelayMs(bodyText: string): number | undefined {
  const match = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(bodyText);
  return match ? Math.ceil(Number(match[1]) * 1000) : undefined;
}

const REFUSAL = /content[ _-]?(policy|filter|management)|safety (system|filter)|moderation|flagged/i;

/** True when an error body says the content itself was refused (the providers' codes and messages for it). */
export function isContentRefusal(bodyText: string): boolean {
  return REFUSAL.test(bodyText);
}

/** The error kind for an HTTP status and its body: 429/5xx retryable, a 400 refusal rejected, other 4xx failed. */
export function errorKindForStatus(status: number, bodyText: string): UpstreamErrorKind {
  if (status === 429 || status >= 500) return 'retryable';
  if (status === 400 && isContentRefusal(bodyText)) return 'rejected';
  return 'failed';
}
