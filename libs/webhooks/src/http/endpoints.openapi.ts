import { CONSOLE_SECURITY, envelopeResponse, errorResponses, type OpenApiFragment } from '@gen/edge';
import type { TSchema } from '@sinclair/typebox';
import {
  CreateEndpointBody,
  EndpointIdParam,
  EndpointListResult,
  EndpointResult,
  EndpointWithSecretResult,
  EventNamesResult,
  RotateSecretBody,
  UpdateEndpointBody,
} from './endpoint.dto';

const security = CONSOLE_SECURITY;
const json = (schema: TSchema, required = true) => ({
  required,
  content: { 'application/json': { schema } },
});
const op = (
  summary: string,
  result: TSchema,
  options: { body?: TSchema; bodyRequired?: boolean; errors?: number[]; description?: string } = {},
) => ({
  tags: ['console'],
  summary,
  ...(options.description ? { description: options.description } : {}),
  security,
  ...(options.body ? { requestBody: json(options.body, options.bodyRequired ?? true) } : {}),
  responses: {
    ...envelopeResponse(summary, result),
    ...errorResponses(options.errors ?? [400, 401, 404, 413, 500]),
  },
});
const id = {
  name: 'id',
  in: 'path',
  required: true,
  schema: EndpointIdParam,
  description: 'Endpoint id (`whe_...`).',
};

/** How deliveries to an endpoint go: the spec leaves the body version, schedule and URL lifetime to us. */
const DELIVERIES =
  'Deliveries (Standard Webhooks): one POST per terminal task event the endpoint subscribes to, body `{"id":"msg_...","type","created","api_version":"2026-11-01","data":{"object":<task record>}}`, built once when the event is queued (asset URLs signed then, valid 24 hours) and resent byte for byte; headers `webhook-id`, `webhook-timestamp`, `webhook-signature` (`v1,<base64 HMAC-SHA256>` per active secret), `User-Agent: Service-Webhook/2`. Any 2xx acknowledges and resets consecutiveFailures; 410 disables the endpoint (`gone_410`) and drops its queued messages; any other failure counts up consecutiveFailures and is retried on WEBHOOK_RETRY_SCHEDULE, the schedule of task callbacks (default 10 s, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h: eight attempts in all). No automatic disabling otherwise.';

/** The account-level webhook endpoint routes (console session credential). */
export const endpointsOpenApi: OpenApiFragment = {
  paths: {
    '/console/v1/webhook-endpoints': {
      post: op('Register a webhook endpoint; the answer shows its secret once.', EndpointWithSecretResult, {
        body: CreateEndpointBody,
        errors: [400, 401, 409, 413, 500],
        description:
          'At most 16 endpoints per account: the 17th is 409. The URL is checked now and again at every delivery against the resolved address. ' +
          DELIVERIES,
      }),
      get: op("List the account's webhook endpoints (never their secrets).", EndpointListResult, {
        errors: [400, 401, 500],
        description:
          'The specification does not show the path of this call (Events, item 9); this is our choice. Oldest first.',
      }),
    },
    '/console/v1/webhook-endpoints/{id}': {
      parameters: [id],
      get: op('Read a webhook endpoint (never its secret).', EndpointResult, {
        errors: [400, 401, 404, 500],
      }),
      patch: op('Change a webhook endpoint, for example `enabled: false`.', EndpointResult, {
        body: UpdateEndpointBody,
        description:
          'The specification does not show the effects of re-enabling (Events, item 9). Ours: `enabled: true` clears the status whatever disabled the endpoint (also `gone_410`): status `enabled`, disabledReason null, consecutiveFailures 0. Messages dropped while it was disabled are not sent again (an operator can redeliver one through the admin API); events from then on are delivered. A changed `url` applies from the next attempt, also of messages being retried.',
      }),
    },
    '/console/v1/webhook-endpoints/{id}/rotate-secret': {
      parameters: [id],
      post: op(
        'Rotate the secret of a webhook endpoint; the answer shows the new one once.',
        EndpointWithSecretResult,
        {
          body: RotateSecretBody,
          bodyRequired: false,
          description:
            'During the grace period deliveries carry two signatures (new and replaced secret); either suffices. Omitting the body takes the default of 86400 seconds. A rotation during a grace period ends the earlier one: only the last two secrets are kept.',
        },
      ),
    },
    '/console/v1/webhook-events': {
      get: op('List the event names an endpoint can subscribe to.', EventNamesResult, {
        errors: [400, 401, 500],
      }),
    },
  },
};
