import { timingSafeEqual } from 'node:crypto';
import { type Clock } from '@gen/core';

/** Both schemes refuse a timestamp more than 300 seconds from the receiver's clock, in either direction. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The raw body bytes as sent: a string is taken as its UTF-8 bytes, never re-serialized. */
export type RawBody = string | Uint8Array;

/** Request headers as a receiver sees them (Node lower-cases names; lookups here ignore case). */
export type ReceivedHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

export type VerificationFailure =
  | 'missing_header'
  | 'invalid_payload_version'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'invalid_body'
  | 'signature_mismatch';

export type VerificationResult =
  { readonly ok: true } | { readonly ok: false; readonly reason: VerificationFailure };

export const verified: VerificationResult = { ok: true };
export const refused = (reason: VerificationFailure): VerificationResult => ({ ok: false, reason });

export function bodyBytes(body: RawBody): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
}

/** The single value of a header, by case-insensitive name; a repeated header counts as missing. */
export function headerValue(headers: ReceivedHeaders, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    if (typeof value === 'string') return value;
    return value?.length === 1 ? value[0] : undefined;
  }
  return undefined;
}

/** Unix seconds as a non-negative integer; a signer given anything else has a bug. */
export function assertUnixSeconds(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`Webhook timestamp must be integer Unix seconds, got ${timestamp}`);
  }
}

/** Checks a timestamp header against the clock: exactly 300 seconds off is accepted, 301 is not. */
export function checkTimestamp(header: string, clock: Clock): VerificationResult {
  if (!/^\d{1,15}$/.test(header)) return refused('invalid_timestamp');
  const timestamp = Number(header);
  const now = Math.floor(clock.now().getTime() / 1000);
  if (now - timestamp > SIGNATURE_TOLERANCE_SECONDS) return refused('timestamp_too_old');
  if (timestamp - now > SIGNATURE_TOLERANCE_SECONDS) return refused('timestamp_too_new');
  return verified;
}

/** Constant-time equality of two ASCII signatures (only the length, which is public, may leak). */
export function signaturesEqual(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
