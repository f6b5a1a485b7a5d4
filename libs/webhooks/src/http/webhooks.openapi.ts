import { CONSOLE_SECURITY, envelopeResponse, errorResponses, type OpenApiFragment } from '@gen/edge';
import { Type } from '@sinclair/typebox';
import {
  AttemptResult,
  DeliveriesQuery,
  DeliveryIdParam,
  DeliveryResult,
  EndpointMessagesQuery,
  MessageResult,
} from './delivery.dto';
import { EndpointIdParam } from './endpoint.dto';

const withAttempts = (result: typeof DeliveryResult | typeof MessageResult) =>
  Type.Object(
    { ...result.properties, attemptLog: Type.Array(AttemptResult) },
    { additionalProperties: false },
  );

const consolePaths = (): Record<string, Record<string, unknown>> => ({
  '/console/v1/webhook-deliveries': {
    get: {
      tags: ['console'],
      summary:
        "What was sent about one of the account's tasks: its callback delivery and endpoint messages, with every attempt.",
      description:
        "The shape of `GET /admin/v1/webhook-deliveries`, for the session's account only. 404 when the account has neither for the task (no callBackUrl and no subscribed endpoint, not sent yet, or not its task: the same answer).",
      security: CONSOLE_SECURITY,
      parameters: [
        { name: 'taskId', in: 'query', required: true, schema: DeliveriesQuery.properties.taskId },
      ],
      responses: {
        ...envelopeResponse(
          'The callback delivery (at most one) and the endpoint messages.',
          Type.Object(
            {
              items: Type.Array(withAttempts(DeliveryResult)),
              messages: Type.Array(withAttempts(MessageResult)),
            },
            { additionalProperties: false },
          ),
        ),
        ...errorResponses([400, 401, 404, 500]),
      },
    },
  },
  '/console/v1/webhook-endpoints/{id}/messages': {
    get: {
      tags: ['console'],
      summary: "An endpoint's latest messages, newest first, each with its attempts.",
      description: "Another account's endpoint is 404.",
      security: CONSOLE_SECURITY,
      parameters: [
        { name: 'id', in: 'path', required: true, schema: EndpointIdParam },
        { name: 'limit', in: 'query', required: false, schema: EndpointMessagesQuery.properties.limit },
      ],
      responses: {
        ...envelopeResponse(
          'The latest messages.',
          Type.Object({ items: Type.Array(withAttempts(MessageResult)) }, { additionalProperties: false }),
        ),
        ...errorResponses([400, 401, 404, 500]),
      },
    },
  },
  '/console/v1/webhook-deliveries/{deliveryId}/redeliver': {
    post: {
      tags: ['console'],
      summary:
        'Send a callback delivery (`whd_`) or endpoint message (`msg_`) of the account again now, same id.',
      description:
        "As `POST /admin/v1/webhook-deliveries/{deliveryId}/redeliver`, for the session's account only (another account's is 404). With the session cookie, send `X-CSRF-Token` (else 403, nothing changed).",
      security: CONSOLE_SECURITY,
      parameters: [{ name: 'deliveryId', in: 'path', required: true, schema: DeliveryIdParam }],
      responses: {
        ...envelopeResponse(
          'The delivery or message, pending again.',
          Type.Union([DeliveryResult, MessageResult]),
        ),
        ...errorResponses([400, 401, 403, 404, 500]),
      },
    },
  },
});

export const webhooksOpenApi: OpenApiFragment = {
  paths: {
    ...consolePaths(),
    '/admin/v1/webhook-deliveries': {
      get: {
        tags: ['admin'],
        summary:
          'What was sent about a task: its callback delivery and its endpoint messages, with every attempt.',
        description:
          'Callback deliveries and endpoint messages share the retry schedule WEBHOOK_RETRY_SCHEDULE (default 10 s, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h between attempts: eight attempts in all).',
        security: [{ adminToken: [] }],
        parameters: [
          { name: 'taskId', in: 'query', required: true, schema: DeliveriesQuery.properties.taskId },
        ],
        responses: {
          ...envelopeResponse(
            'The callback delivery (at most one per task) and the endpoint messages (one per endpoint).',
            Type.Object(
              {
                items: Type.Array(withAttempts(DeliveryResult)),
                messages: Type.Array(withAttempts(MessageResult)),
              },
              { additionalProperties: false },
            ),
          ),
          ...errorResponses([400, 401, 500]),
        },
      },
    },
    '/admin/v1/webhook-deliveries/{deliveryId}/redeliver': {
      parameters: [
        {
          name: 'deliveryId',
          in: 'path',
          required: true,
          schema: DeliveryIdParam,
          description: 'A callback delivery id (`whd_`) or an endpoint message id (`msg_`).',
        },
      ],
      post: {
        tags: ['admin'],
        summary: 'Send a callback or an endpoint message again now, whatever its state, under the same id.',
        description:
          'A callback keeps its delivery id and record (fresh URLs, timestamp and signature). An endpoint message resends its stored body with the same `webhook-id`, to the current URL of the endpoint, with a fresh timestamp and signatures; while the endpoint is disabled it is dropped again unsent.',
        security: [{ adminToken: [] }],
        responses: {
          ...envelopeResponse(
            'The delivery or message, due now.',
            Type.Union([DeliveryResult, MessageResult]),
          ),
          ...errorResponses([400, 401, 404, 500]),
        },
      },
    },
  },
};
