import { IdPrefix } from '@gen/contracts';
import {
  callbackHeaders as signedCallbackHeaders,
  callbackTaskId,
  type CallbackPayloadVersion,
} from '@gen/webhook-signing';

/** A task record as recordInfo shows it (spec, "Task record"). */
export type CallbackTaskRecord = Readonly<Record<string, unknown>>;

/**
 * Version 1 body fields (frozen: spec, Events, "Callback to callBackUrl", item 4; Versioning 3): record field
 * to v1 name, in the order they are written. Never add one; `input`, `settled`, `completedAt` and
 * `request_id` are left out on purpose.
 */
export const CALLBACK_V1_FIELDS = Object.freeze({
  taskId: 'task_id',
  model: 'model',
  state: 'state',
  output: 'output',
  errorCode: 'error_code',
  errorMessage: 'error_message',
  cost: 'cost',
  createdAt: 'created_at',
  sourceTaskId: 'source_task_id',
  estimatedCost: 'estimated_cost',
} as const);

/** Version 1 fields of an element of `output.assets` (frozen like `CALLBACK_V1_FIELDS`). */
export const CALLBACK_V1_ASSET_FIELDS = Object.freeze({
  key: 'key',
  url: 'url',
  expiresAt: 'expires_at',
  mime: 'mime',
  width: 'width',
  height: 'height',
  bytes: 'bytes',
  durationSeconds: 'duration_seconds',
  pending: 'pending',
  unavailable: 'unavailable',
} as const);

const DELIVERY_ID_PREFIX = `${IdPrefix.webhookDelivery}_`;

/**
 * Version 2 body: the recordInfo envelope around the record; `request_id` is the delivery id (`whd_`), stable
 * across retries and redelivery. Throws `RangeError` for any other id (a bug in the caller).
 */
export function callbackV2Body(record: CallbackTaskRecord, deliveryId: string): string {
  if (!deliveryId.startsWith(DELIVERY_ID_PREFIX) || deliveryId.length === DELIVERY_ID_PREFIX.length) {
    throw new RangeError(`A version 2 callback request_id is a ${DELIVERY_ID_PREFIX} delivery id`);
  }
  return JSON.stringify({ code: 200, msg: 'success', data: record, request_id: deliveryId });
}

/** Copies the listed fields that are present, renamed, in the list's order; nothing else passes. */
function pick(
  source: Readonly<Record<string, unknown>>,
  fields: Readonly<Record<string, string>>,
  convert: (name: string, value: unknown) => unknown = (_name, value) => value,
): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const [from, to] of Object.entries(fields)) {
    const value = source[from];
    if (value !== undefined) picked[to] = convert(from, value);
  }
  return picked;
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `output` of version 1: its `assets` only, each with the snake_case asset fields. */
function v1Output(output: unknown): Record<string, unknown> {
  const assets = isObject(output) && Array.isArray(output.assets) ? output.assets : [];
  return { assets: assets.filter(isObject).map((asset) => pick(asset, CALLBACK_V1_ASSET_FIELDS)) };
}

/** Version 1 body: flat snake_case fields of `CALLBACK_V1_FIELDS`, no envelope. */
export function callbackV1Body(record: CallbackTaskRecord): string {
  return JSON.stringify(
    pick(record, CALLBACK_V1_FIELDS, (name, value) => (name === 'output' ? v1Output(value) : value)),
  );
}

export interface CallbackHeadersInput {
  /** `data.taskId` of a version 2 body, `task_id` of a version 1 body; never the `request_id`. */
  readonly taskId: string;
  /** The exact body that is sent. */
  readonly body: string;
  /** The account signing secret. A missing secret fails the attempt before this is called. */
  readonly secret: string;
  /** Unix seconds of this attempt (recomputed on each retry). */
  readonly timestampSeconds: number;
  readonly payloadVersion: CallbackPayloadVersion;
}

/**
 * The headers of one callback attempt: `X-Webhook-Timestamp`, `X-Webhook-Signature`,
 * `X-Webhook-Payload-Version`, `User-Agent: Service-Webhook/1`, `Content-Type: application/json`. Throws
 * `RangeError` for an empty secret, a timestamp that is not integer seconds, or a `taskId` that is not the
 * task id the body carries for its version.
 */
export function callbackHeaders(input: CallbackHeadersInput): Readonly<Record<string, string>> {
  if (callbackTaskId(input.body, input.payloadVersion) !== input.taskId) {
    throw new RangeError(`The signed task id must be the one a version ${input.payloadVersion} body carries`);
  }
  return signedCallbackHeaders({
    secret: input.secret,
    taskId: input.taskId,
    timestamp: input.timestampSeconds,
    rawBody: input.body,
    payloadVersion: input.payloadVersion,
  });
}
