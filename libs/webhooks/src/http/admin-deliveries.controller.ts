import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, QueryPipe, SchemaPipe, envelopeResponse, errorResponses } from '@gen/edge';
import { Type } from '@sinclair/typebox';
import {
  DeliveriesQuery,
  DeliveryIdParam,
  DeliveryResult,
  MessageResult,
  TaskWebhooksResult,
} from './delivery.dto';
import { ListTaskWebhooksUseCase } from '../use-cases/list-task-webhooks.use-case';
import { RedeliverWebhookUseCase } from '../use-cases/redeliver-webhook.use-case';

/** Delivery records of task callbacks and endpoint messages, and manual redelivery (admin token). */
@Controller('admin/v1/webhook-deliveries')
export class AdminDeliveriesController {
  constructor(
    private readonly listTaskWebhooks: ListTaskWebhooksUseCase,
    private readonly redeliverWebhook: RedeliverWebhookUseCase,
  ) {}

  /** GET /admin/v1/webhook-deliveries?taskId= : the callback delivery and endpoint messages of a task. */
  @Get()
  @ApiOperation({
    tags: ['admin'],
    summary:
      'What was sent about a task: its callback delivery and its endpoint messages, with every attempt.',
    description:
      'Callback deliveries and endpoint messages share the retry schedule WEBHOOK_RETRY_SCHEDULE (default 10 s, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h between attempts: eight attempts in all).',
    security: [{ adminToken: [] }],
    responses: {
      ...envelopeResponse(
        'The callback delivery (at most one per task) and the endpoint messages (one per endpoint).',
        TaskWebhooksResult,
      ),
      ...errorResponses([400, 401, 500]),
    },
  })
  list(@Query(new QueryPipe(DeliveriesQuery)) query: DeliveriesQuery) {
    return this.listTaskWebhooks.execute(query.taskId);
  }

  /** POST /admin/v1/webhook-deliveries/{deliveryId}/redeliver : `whd_` or `msg_`, sent again now, same id. */
  @Post(':deliveryId/redeliver')
  @ApiOperation({
    tags: ['admin'],
    summary: 'Send a callback or an endpoint message again now, whatever its state, under the same id.',
    description:
      'A callback keeps its delivery id and record (fresh URLs, timestamp and signature). An endpoint message resends its stored body with the same `webhook-id`, to the current URL of the endpoint, with a fresh timestamp and signatures; while the endpoint is disabled it is dropped again unsent.',
    security: [{ adminToken: [] }],
    parameters: [
      {
        name: 'deliveryId',
        in: 'path',
        description: 'A callback delivery id (`whd_`) or an endpoint message id (`msg_`).',
      },
    ],
    responses: {
      ...envelopeResponse('The delivery or message, due now.', Type.Union([DeliveryResult, MessageResult])),
      ...errorResponses([400, 401, 404, 500]),
    },
  })
  @HttpCode(200)
  redeliver(@Param('deliveryId', new SchemaPipe(DeliveryIdParam, 'deliveryId')) deliveryId: string) {
    return this.redeliverWebhook.execute(deliveryId);
  }
}
