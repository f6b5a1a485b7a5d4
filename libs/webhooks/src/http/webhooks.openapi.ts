import { envelopeResponse, errorResponses, type OpenApiFragment } from '@gen/edge';
import { Type } from '@sinclair/typebox';

const DeliveryView = {
  deliveryId: Type.String({ pattern: '^whd_', description: 'Also the `request_id` of version 2 bodies.' }),
  taskId: Type.String({ pattern: '^job_' }),
  accountId: Type.String({ pattern: '^acc_' }),
  url: Type.String(),
  payloadVersion: Type.Union([Type.Literal(1), Type.Literal(2)]),
  state: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer({ minimum: 0 }),
  nextAttemptAt: Type.Optional(Type.String({ format: 'date-time' })),
  lastOutcome: Type.Optional(
    Type.String({
      description:
        'delivered, redirect, status, timeout, connection, blocked_address, invalid_url or no_secret.',
    }),
  ),
  createdAt: Type.String({ format: 'date-time' }),
  deliveredAt: Type.Optional(Type.String({ format: 'date-time' })),
};

const Attempt = Type.Object(
  {
    n: Type.Integer({ minimum: 1 }),
    attemptedAt: Type.String({ format: 'date-time' }),
    outcome: Type.String(),
    status: Type.Optional(Type.Integer()),
    durationMs: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export const webhooksOpenApi: OpenApiFragment = {
  paths: {
    '/admin/v1/webhook-deliveries': {
      get: {
        tags: ['admin'],
        summary: 'The callback delivery of a task, with every attempt.',
        security: [{ adminToken: [] }],
        parameters: [
          { name: 'taskId', in: 'query', required: true, schema: { type: 'string', minLength: 1 } },
        ],
        responses: {
          ...envelopeResponse(
            'Deliveries (at most one per task).',
            Type.Object(
              {
                items: Type.Array(
                  Type.Object(
                    { ...DeliveryView, attemptLog: Type.Array(Attempt) },
                    { additionalProperties: false },
                  ),
                ),
              },
              { additionalProperties: false },
            ),
          ),
          ...errorResponses([400, 401, 500]),
        },
      },
    },
    '/admin/v1/webhook-deliveries/{deliveryId}/redeliver': {
      parameters: [{ name: 'deliveryId', in: 'path', required: true, schema: { type: 'string' } }],
      post: {
        tags: ['admin'],
        summary:
          'Send a callback again now: the same delivery id and record, fresh URLs, timestamp and signature.',
        security: [{ adminToken: [] }],
        responses: {
          ...envelopeResponse(
            'The delivery, due now.',
            Type.Object(DeliveryView, { additionalProperties: false }),
          ),
          ...errorResponses([401, 404, 500]),
        },
      },
    },
  },
};
