import { envelopeResponse, errorResponses, type OpenApiFragment } from '@gen/edge';
import type { TSchema } from '@sinclair/typebox';
import {
  CreateEndpointBody,
  EndpointListResult,
  EndpointResult,
  EndpointWithSecretResult,
  EventNamesResult,
  RotateSecretBody,
  UpdateEndpointBody,
} from './endpoint.dto';

const security = [{ consoleSession: [] }];
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
  schema: { type: 'string' },
  description: 'Endpoint id (`whe_...`).',
};

/** The account-level webhook endpoint routes (console session credential). */
export const endpointsOpenApi: OpenApiFragment = {
  paths: {
    '/console/v1/webhook-endpoints': {
      post: op('Register a webhook endpoint; the answer shows its secret once.', EndpointWithSecretResult, {
        body: CreateEndpointBody,
        errors: [400, 401, 409, 413, 500],
        description:
          'At most 16 endpoints per account: the 17th is 409. The URL is checked now and again at every delivery against the resolved address.',
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
          'The specification does not show the effects of re-enabling (Events, item 9). Ours: `enabled: true` clears the status whatever disabled the endpoint (also `gone_410`): status `enabled`, disabledReason null, consecutiveFailures 0.',
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
