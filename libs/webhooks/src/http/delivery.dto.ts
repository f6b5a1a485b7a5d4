import { Type, type Static } from '@sinclair/typebox';
import { IdPrefix } from '@gen/contracts';
import { idSchema } from '@gen/core';
import type { DeliveryRow } from '../persistence/delivery.repository';
import type { MessageRow } from '../persistence/message.repository';
import type { AttemptLogEntry, OutboundProgress } from '../persistence/outbound-queue';

/** GET /admin/v1/webhook-deliveries?taskId= : the task id is checked by its pattern before any query. */
export const DeliveriesQuery = Type.Object(
  { taskId: idSchema(IdPrefix.task) },
  { additionalProperties: false },
);
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;

/** A callback delivery id (`whd_`) or an endpoint message id (`msg_`): checked before any query. */
export const DeliveryIdParam = idSchema(IdPrefix.webhookDelivery, IdPrefix.webhookMessage);

const outcomes =
  'delivered, redirect, status, timeout, connection, blocked_address, invalid_url, unsendable or no_secret (callbacks only).';

/** Where the attempts of a delivery or message stand: the fields both views share, after `state`. */
const progressFields = (outcomeDescription: string) => ({
  attempts: Type.Integer({ minimum: 0 }),
  nextAttemptAt: Type.Optional(Type.String({ format: 'date-time' })),
  lastOutcome: Type.Optional(Type.String({ description: outcomeDescription })),
  createdAt: Type.String({ format: 'date-time' }),
  deliveredAt: Type.Optional(Type.String({ format: 'date-time' })),
});

const progressView = (row: OutboundProgress<string>) => ({
  state: row.state,
  attempts: row.attempts,
  ...(row.nextAttemptAt && row.state === 'pending' ? { nextAttemptAt: row.nextAttemptAt.toISOString() } : {}),
  ...(row.lastOutcome ? { lastOutcome: row.lastOutcome } : {}),
  createdAt: row.createdAt.toISOString(),
  ...(row.deliveredAt ? { deliveredAt: row.deliveredAt.toISOString() } : {}),
});

/** A task callback delivery as the admin API shows it. */
export const DeliveryResult = Type.Object(
  {
    deliveryId: Type.String({ pattern: '^whd_', description: 'Also the `request_id` of version 2 bodies.' }),
    taskId: Type.String({ pattern: '^job_' }),
    accountId: Type.String({ pattern: '^acc_' }),
    url: Type.String(),
    payloadVersion: Type.Union([Type.Literal(1), Type.Literal(2)]),
    state: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
    ...progressFields(outcomes),
  },
  { additionalProperties: false },
);

export const deliveryView = (d: DeliveryRow) => ({
  deliveryId: d.id,
  taskId: d.taskId,
  accountId: d.accountId,
  url: d.url,
  payloadVersion: d.payloadVersion,
  ...progressView(d),
});

/** An endpoint message as the admin API shows it (not its body). */
export const MessageResult = Type.Object(
  {
    messageId: Type.String({ pattern: '^msg_', description: 'Also the `webhook-id` header and body `id`.' }),
    taskId: Type.String({ pattern: '^job_' }),
    accountId: Type.String({ pattern: '^acc_' }),
    endpointId: Type.String({ pattern: '^whe_' }),
    eventType: Type.String({ description: 'task.succeeded, task.failed or task.expired.' }),
    state: Type.Union(
      [Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('dropped')],
      {
        description:
          'failed: the retry schedule ran out, or the endpoint answered 410. dropped: not sent (further) because the endpoint was disabled or deleted, or answered 410 to another message.',
      },
    ),
    ...progressFields(`${outcomes} For dropped messages: endpoint_disabled, endpoint_deleted or gone_410.`),
  },
  { additionalProperties: false },
);

export const messageView = (m: MessageRow) => ({
  messageId: m.id,
  taskId: m.taskId,
  accountId: m.accountId,
  endpointId: m.endpointId,
  eventType: m.eventType,
  ...progressView(m),
});

export const AttemptResult = Type.Object(
  {
    n: Type.Integer({ minimum: 1 }),
    attemptedAt: Type.String({ format: 'date-time' }),
    outcome: Type.String(),
    status: Type.Optional(Type.Integer()),
    error: Type.Optional(
      Type.String({
        pattern: '^[A-Z][A-Z0-9_]*$',
        description:
          'The error class of a failure without an answer (e.g. ECONNREFUSED, ETIMEDOUT, UND_ERR_SOCKET); never an address.',
      }),
    ),
    durationMs: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export const attemptView = (a: AttemptLogEntry) => ({
  n: a.n,
  attemptedAt: a.attemptedAt.toISOString(),
  outcome: a.outcome,
  ...(a.status !== null ? { status: a.status } : {}),
  ...(a.error !== null ? { error: a.error } : {}),
  durationMs: a.durationMs,
});

/** GET /console/v1/webhook-endpoints/{id}/messages: how many of the latest messages (1 to 100, default 20). */
export const EndpointMessagesQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: '1 to 100, default 20.' }),
    ),
  },
  { additionalProperties: false },
);
export type EndpointMessagesQuery = Static<typeof EndpointMessagesQuery>;

/** A delivery or a message with every attempt, as the delivery reads answer it. */
export const withAttempts = (result: typeof DeliveryResult | typeof MessageResult) =>
  Type.Object(
    { ...result.properties, attemptLog: Type.Array(AttemptResult) },
    { additionalProperties: false },
  );

/** What was sent about a task: its callback delivery (at most one) and its endpoint messages. */
export const TaskWebhooksResult = Type.Object(
  { items: Type.Array(withAttempts(DeliveryResult)), messages: Type.Array(withAttempts(MessageResult)) },
  { additionalProperties: false },
);
