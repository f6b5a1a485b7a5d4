import { IdPrefix } from '@gen/contracts';

/**
 * `api_version` of every account-level event body (spec, Versioning, item 4): the date of the body layout
 * below. A change of the layout gets a new date; receivers may branch on it.
 */
export const ENDPOINT_API_VERSION = '2026-11-01';

export interface EndpointMessageInput {
  /** `msg_`: also the `webhook-id` header of every attempt. */
  readonly id: string;
  /** The event name, e.g. `task.succeeded`. */
  readonly type: string;
  /** Unix seconds when the event was created. */
  readonly created: number;
  /** The task record snapshot, as recordInfo showed it when the event was created. */
  readonly object: Readonly<Record<string, unknown>>;
}

const MESSAGE_ID_PREFIX = `${IdPrefix.webhookMessage}_`;

/**
 * The body of an endpoint message (spec, Events, Account-level endpoint deliveries, item 4):
 * `{"id","type","created","api_version","data":{"object"}}`. Built once when the message is queued; every
 * attempt sends these exact bytes. Throws `RangeError` for an id that is not `msg_` or a `created` that is
 * not integer seconds (bugs in the caller).
 */
export function endpointMessageBody(input: EndpointMessageInput): string {
  if (!input.id.startsWith(MESSAGE_ID_PREFIX) || input.id.length === MESSAGE_ID_PREFIX.length) {
    throw new RangeError(`An endpoint message id is a ${MESSAGE_ID_PREFIX} id`);
  }
  if (!Number.isSafeInteger(input.created) || input.created < 0) {
    throw new RangeError('created is integer Unix seconds');
  }
  return JSON.stringify({
    id: input.id,
    type: input.type,
    created: input.created,
    api_version: ENDPOINT_API_VERSION,
    data: { object: input.object },
  });
}
