import { Type, type Static } from '@sinclair/typebox';
import { IdPrefix } from '@gen/contracts';
import { idSchema } from '@gen/core';
import { MAX_CALLBACK_URL_LENGTH } from '@gen/ssrf';
import {
  DEFAULT_GRACE_PERIOD_SECONDS,
  MAX_DESCRIPTION_LENGTH,
  MAX_ENDPOINTS_PER_ACCOUNT,
  MAX_GRACE_PERIOD_SECONDS,
} from '../domain/endpoint';
import { ENDPOINT_EVENT_NAMES } from '../domain/event-names';

const Url = Type.String({
  minLength: 1,
  maxLength: MAX_CALLBACK_URL_LENGTH,
  description:
    'Public HTTPS address on port 443, without user info (no user name or password, not even an empty `:@`); every address the host resolves to must be public. Anything else: 400 "Invalid callback URL".',
});
const EnabledEvents = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  minItems: 1,
  maxItems: MAX_ENDPOINTS_PER_ACCOUNT,
  description: `Event names: ${ENDPOINT_EVENT_NAMES.join(', ')}. Unknown names and wildcards (\`*\`, \`task.*\`) are 400; \`task.completed\` stands for the four others.`,
});
const Description = (description: string) => Type.String({ maxLength: MAX_DESCRIPTION_LENGTH, description });

/** POST /console/v1/webhook-endpoints. Unknown fields are 400. */
export const CreateEndpointBody = Type.Object(
  {
    url: Url,
    enabledEvents: EnabledEvents,
    description: Type.Optional(Description('Free text; empty when omitted.')),
  },
  { additionalProperties: false },
);
export type CreateEndpointBody = Static<typeof CreateEndpointBody>;

/** PATCH /console/v1/webhook-endpoints/{id}: the fields given change; unknown fields are 400. */
export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    enabledEvents: Type.Optional(EnabledEvents),
    description: Type.Optional(Description('Free text.')),
    enabled: Type.Optional(
      Type.Boolean({
        description:
          'false disables the endpoint (status `disabled`, disabledReason `disabled_by_user`): its queued messages are dropped at their next attempt. true enables it again, also after a 410 (status `enabled`, disabledReason null, consecutiveFailures 0); dropped messages are not sent again.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateEndpointBody = Static<typeof UpdateEndpointBody>;

/** POST /console/v1/webhook-endpoints/{id}/rotate-secret; the body may be omitted. */
export const RotateSecretBody = Type.Object(
  {
    gracePeriodSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_GRACE_PERIOD_SECONDS,
        default: DEFAULT_GRACE_PERIOD_SECONDS,
        description:
          'How long the replaced secret still signs deliveries (beside the new one), in seconds. 0 drops it at once.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RotateSecretBody = Static<typeof RotateSecretBody>;

/** The `{id}` route parameter: checked by its pattern before any query (else 400). */
export const EndpointIdParam = idSchema(IdPrefix.webhookEndpoint);

const endpointFields = {
  id: Type.String({ pattern: '^whe_' }),
  url: Type.String(),
  enabledEvents: Type.Array(Type.String()),
  description: Type.String(),
  enabled: Type.Boolean({ description: 'false once set so through PATCH.' }),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
  disabledReason: Type.Union([Type.String(), Type.Null()], {
    description: '`disabled_by_user` (PATCH) or `gone_410` (the endpoint answered 410); null when enabled.',
  }),
  consecutiveFailures: Type.Integer({
    minimum: 0,
    description:
      'Consecutive failed deliveries (a 410 aside): reset by a 2xx and by re-enabling. Never disables the endpoint by itself.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
};

/** An endpoint as the console reads it: never its secret. */
export const EndpointResult = Type.Object(endpointFields, { additionalProperties: false });

/** An endpoint with its new secret: the create and rotate answers only. */
export const EndpointWithSecretResult = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      pattern: '^whsec_',
      description: 'Shown once: `whsec_` + base64 of 32 random bytes (Standard Webhooks).',
    }),
  },
  { additionalProperties: false },
);

export const EndpointListResult = Type.Object(
  { items: Type.Array(EndpointResult) },
  { additionalProperties: false },
);

export const EventNamesResult = Type.Object(
  { items: Type.Array(Type.Object({ name: Type.String(), description: Type.String() })) },
  { additionalProperties: false },
);
