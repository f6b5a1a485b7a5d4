import { BusinessCode } from '@gen/contracts';
import { DomainError, type MessageId } from '@gen/core';
import { ENDPOINT_EVENT_NAMES, isEndpointEventName, type EndpointEventName } from './event-names';

/** Spec, Limits: an account can hold 16 endpoints. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 16;
/** Spec, Events, item 6: default rotation grace period, and its maximum (7 days). */
export const DEFAULT_GRACE_PERIOD_SECONDS = 86_400;
export const MAX_GRACE_PERIOD_SECONDS = 604_800;
/** Longest accepted description, in characters (our choice: the spec gives none). */
export const MAX_DESCRIPTION_LENGTH = 512;

/**
 * The message id of the refusal of an endpoint beyond the limit (409). Its own id, `webhook.endpoint_limit`
 * ("An account can hold at most {limit} webhook endpoints."), replaces this one once every catalog has it;
 * the refusal already carries `limit` for it.
 */
export const ENDPOINT_LIMIT_MESSAGE: MessageId = 'webhook.endpoint_limit';

/** Why an endpoint is disabled: set through PATCH (`enabled: false`), or a 410 answer to a delivery. */
export const DISABLED_BY_USER = 'disabled_by_user';
export const DISABLED_GONE_410 = 'gone_410';

export type EndpointStatus = 'enabled' | 'disabled';

/** One account-level webhook endpoint, as stored. */
export interface WebhookEndpoint {
  readonly id: string;
  readonly accountId: string;
  readonly url: string;
  readonly description: string;
  readonly enabledEvents: readonly EndpointEventName[];
  readonly enabled: boolean;
  readonly status: EndpointStatus;
  readonly disabledReason: string | null;
  readonly consecutiveFailures: number;
  /** The current `whsec_` secret. */
  readonly secret: string;
  /** The secret before the last rotation, valid for signing until `previousSecretExpiresAt`. */
  readonly previousSecret: string | null;
  readonly previousSecretExpiresAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** True while an endpoint receives messages: enabled, and not disabled by a 410 or through PATCH. */
export function endpointIsActive(endpoint: Pick<WebhookEndpoint, 'enabled' | 'status'>): boolean {
  return endpoint.enabled && endpoint.status !== 'disabled';
}

/**
 * The secrets a delivery attempt at `now` is signed with: the current one, then the previous one while its
 * rotation grace period lasts (spec, Events, item 6: the header carries one signature per secret).
 */
export function secretsForSigning(
  endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>,
  now: Date,
): string[] {
  const previousValid =
    endpoint.previousSecret !== null &&
    endpoint.previousSecretExpiresAt !== null &&
    endpoint.previousSecretExpiresAt.getTime() > now.getTime();
  return previousValid ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

/**
 * Checks a subscription list at save time: at least one name, every name known (wildcards such as `*` or
 * `task.*` are not names). Returns the names once each, in the order given.
 */
export function checkEnabledEvents(names: readonly string[]): EndpointEventName[] {
  if (names.length === 0)
    throw new DomainError(BusinessCode.InvalidRequest, 'request.invalid_field', { field: 'enabledEvents' });
  names.forEach((name, i) => {
    if (!isEndpointEventName(name)) {
      throw new DomainError(BusinessCode.InvalidRequest, 'input.not_allowed_value', {
        field: `enabledEvents.${i}`,
        allowed: ENDPOINT_EVENT_NAMES.join(', '),
      });
    }
  });
  return [...new Set(names as readonly EndpointEventName[])];
}

/** The state an `enabled` change through PATCH leads to. Re-enabling also starts the failure count again. */
export function enabledState(enabled: boolean): {
  enabled: boolean;
  status: EndpointStatus;
  disabledReason: string | null;
  resetFailures: boolean;
} {
  return enabled
    ? { enabled: true, status: 'enabled', disabledReason: null, resetFailures: true }
    : { enabled: false, status: 'disabled', disabledReason: DISABLED_BY_USER, resetFailures: false };
}
