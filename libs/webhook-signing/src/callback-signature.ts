import { createHash, createHmac } from 'node:crypto';
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

/** Task callbacks to `callBackUrl` (spec, Events, "Callback to callBackUrl"). */
export const CALLBACK_HEADERS = {
  timestamp: 'X-Webhook-Timestamp',
  signature: 'X-Webhook-Signature',
  payloadVersion: 'X-Webhook-Payload-Version',
} as const;
export const CALLBACK_USER_AGENT = 'Service-Webhook/1';

export type CallbackPayloadVersion = 1 | 2;

export interface CallbackSigningInput {
  /** The account-wide signing secret; its UTF-8 bytes are the HMAC key, as written (no decoding). */
  readonly secret: string;
  /** `task_id` of a version 1 body, `data.taskId` of a version 2 body; never `request_id`. */
  readonly taskId: string;
  /** Unix seconds of this delivery attempt (recomputed on each retry). */
  readonly timestamp: number;
  readonly rawBody: RawBody;
}

/** `<task_id>.<timestamp>.<sha256_hex(raw_body)>`: the text the HMAC covers. */
export function callbackSignedText(input: Omit<CallbackSigningInput, 'secret'>): string {
  assertUnixSeconds(input.timestamp);
  const digest = createHash('sha256').update(bodyBytes(input.rawBody)).digest('hex');
  return `${input.taskId}.${input.timestamp}.${digest}`;
}

/**
 * The `X-Webhook-Signature` value: base64 HMAC-SHA256 over the signed text. Throws on an empty secret:
 * the caller checks for a missing secret first, because then the attempt counts as failed unsent.
 */
export function signCallback(input: CallbackSigningInput): string {
  if (input.secret.length === 0) throw new RangeError('A callback needs the account signing secret');
  return createHmac('sha256', Buffer.from(input.secret, 'utf8'))
    .update(callbackSignedText(input), 'utf8')
    .digest('base64');
}

/** Every header of one callback attempt, in the spec's spelling. */
export function callbackHeaders(
  input: CallbackSigningInput & { readonly payloadVersion: CallbackPayloadVersion },
): Record<string, string> {
  return {
    [CALLBACK_HEADERS.timestamp]: String(input.timestamp),
    [CALLBACK_HEADERS.signature]: signCallback(input),
    [CALLBACK_HEADERS.payloadVersion]: String(input.payloadVersion),
    'User-Agent': CALLBACK_USER_AGENT,
    'Content-Type': 'application/json',
  };
}

export interface CallbackVerificationInput {
  readonly secret: string;
  readonly rawBody: RawBody;
  readonly headers: ReceivedHeaders;
  readonly clock?: Clock;
}

/**
 * A receiver's check, written from the spec: the payload version header picks where the task id is read
 * (`task_id` for 1, `data.taskId` for 2), the timestamp must lie within 300 seconds of the clock, and the
 * signature is compared in constant time.
 */
export function verifyCallback(input: CallbackVerificationInput): VerificationResult {
  const timestamp = headerValue(input.headers, CALLBACK_HEADERS.timestamp);
  const signature = headerValue(input.headers, CALLBACK_HEADERS.signature);
  const version = headerValue(input.headers, CALLBACK_HEADERS.payloadVersion);
  if (timestamp === undefined || signature === undefined || version === undefined) {
    return refused('missing_header');
  }
  if (version !== '1' && version !== '2') return refused('invalid_payload_version');
  const fresh = checkTimestamp(timestamp, input.clock ?? systemClock);
  if (!fresh.ok) return fresh;
  const taskId = callbackTaskId(input.rawBody, version === '1' ? 1 : 2);
  if (taskId === undefined) return refused('invalid_body');
  const expected = signCallback({
    secret: input.secret,
    taskId,
    timestamp: Number(timestamp),
    rawBody: input.rawBody,
  });
  return signaturesEqual(expected, signature) ? verified : refused('signature_mismatch');
}

/** The task id a callback body carries for its payload version, or undefined if the body has none. */
export function callbackTaskId(rawBody: RawBody, version: CallbackPayloadVersion): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(bodyBytes(rawBody).toString('utf8'));
  } catch {
    return undefined;
  }
  const holder = version === 1 ? body : field(body, 'data');
  const taskId = field(holder, version === 1 ? 'task_id' : 'taskId');
  return typeof taskId === 'string' && taskId.length > 0 ? taskId : undefined;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}
