import { createHmac, randomBytes } from 'node:crypto';
import { type Clock, systemClock } from '@gen/core';
import {
  assertUnixSeconds,
  bodyBytes,
  checkTimestamp,
  headerValue,
  type RawBody,
  type ReceivedHeaders,
  refused,
  signaturesEqual,
  type VerificationResult,
  verified,
} from './signature-checks';

/** Account-level endpoint deliveries on the Standard Webhooks scheme (spec, Events, item 6). */
export const STANDARD_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;
export const STANDARD_USER_AGENT = 'Service-Webhook/2';
export const ENDPOINT_SECRET_PREFIX = 'whsec_';
export const MESSAGE_ID_PREFIX = 'msg_';
/** Random bytes in a new endpoint secret (the HMAC key length, as in the spec's test vector). */
export const ENDPOINT_SECRET_BYTES = 32;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes. Shown once, at creation or rotation. */
export function generateEndpointSecret(): string {
  return ENDPOINT_SECRET_PREFIX + randomBytes(ENDPOINT_SECRET_BYTES).toString('base64');
}

/** The HMAC key: the bytes obtained by base64-decoding the part after `whsec_`. */
export function endpointSecretKey(secret: string): Buffer {
  const encoded = secret.startsWith(ENDPOINT_SECRET_PREFIX)
    ? secret.slice(ENDPOINT_SECRET_PREFIX.length)
    : '';
  if (encoded.length === 0 || !BASE64.test(encoded)) {
    throw new RangeError('An endpoint secret is `whsec_` followed by standard base64');
  }
  return Buffer.from(encoded, 'base64');
}

export interface StandardSigningInput {
  /** The `whsec_` secret of the endpoint. */
  readonly secret: string;
  /** The `webhook-id` (prefix `msg_`, stable across retries). */
  readonly msgId: string;
  /** The `webhook-timestamp`: Unix seconds of this attempt. */
  readonly timestamp: number;
  /** The raw body itself (no inner digest). */
  readonly body: RawBody;
}

/** One signature: `v1,` + base64 HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>`. */
export function signStandard(input: StandardSigningInput): string {
  if (!input.msgId.startsWith(MESSAGE_ID_PREFIX)) {
    throw new RangeError(`A webhook-id starts with ${MESSAGE_ID_PREFIX}`);
  }
  assertUnixSeconds(input.timestamp);
  return `v1,${standardHmac(input.secret, input.msgId, String(input.timestamp), input.body)}`;
}

function standardHmac(secret: string, msgId: string, timestamp: string, body: RawBody): string {
  const hmac = createHmac('sha256', endpointSecretKey(secret));
  hmac.update(`${msgId}.${timestamp}.`, 'utf8');
  hmac.update(bodyBytes(body));
  return hmac.digest('base64');
}

export interface StandardDeliveryInput extends Omit<StandardSigningInput, 'secret'> {
  /** Every active secret: one normally, the new and the old during a rotation's grace period. */
  readonly secrets: readonly string[];
}

/** The `webhook-signature` value: one signature per active secret, separated by single spaces. */
export function standardSignatureHeader(input: StandardDeliveryInput): string {
  if (input.secrets.length === 0) throw new RangeError('An endpoint delivery needs at least one secret');
  return input.secrets.map((secret) => signStandard({ ...input, secret })).join(' ');
}

/** Every header of one endpoint delivery attempt. */
export function standardHeaders(input: StandardDeliveryInput): Record<string, string> {
  return {
    [STANDARD_HEADERS.id]: input.msgId,
    [STANDARD_HEADERS.timestamp]: String(input.timestamp),
    [STANDARD_HEADERS.signature]: standardSignatureHeader(input),
    'User-Agent': STANDARD_USER_AGENT,
    'Content-Type': 'application/json',
  };
}

export interface StandardVerificationInput {
  /** The receiver's `whsec_` secret. */
  readonly secret: string;
  readonly body: RawBody;
  readonly headers: ReceivedHeaders;
  readonly clock?: Clock;
}

/**
 * A receiver's check: the timestamp within 300 seconds of the clock, and any one of the space-separated
 * `v1,` signatures equal (in constant time) to the one this secret gives. Other versions are ignored.
 */
export function verifyStandard(input: StandardVerificationInput): VerificationResult {
  const msgId = headerValue(input.headers, STANDARD_HEADERS.id);
  const timestamp = headerValue(input.headers, STANDARD_HEADERS.timestamp);
  const signatures = headerValue(input.headers, STANDARD_HEADERS.signature);
  if (msgId === undefined || timestamp === undefined || signatures === undefined) {
    return refused('missing_header');
  }
  const fresh = checkTimestamp(timestamp, input.clock ?? systemClock);
  if (!fresh.ok) return fresh;
  const expected = standardHmac(input.secret, msgId, timestamp, input.body);
  const matches = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => signaturesEqual(expected, entry.slice(3)));
  return matches ? verified : refused('signature_mismatch');
}
