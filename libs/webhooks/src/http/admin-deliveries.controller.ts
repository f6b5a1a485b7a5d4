import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { QueryPipe, SchemaPipe } from '@gen/edge';
import { DeliveriesQuery, DeliveryIdParam } from './delivery.dto';
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
  list(@Query(new QueryPipe(DeliveriesQuery)) query: DeliveriesQuery) {
    return this.listTaskWebhooks.execute(query.taskId);
  }

  /** POST /admin/v1/webhook-deliveries/{deliveryId}/redeliver : `whd_` or `msg_`, sent again now, same id. */
  @Post(':deliveryId/redeliver')
  @HttpCode(200)
  redeliver(@Param('deliveryId', new SchemaPipe(DeliveryIdParam, 'deliveryId')) deliveryId: string) {
    return this.redeliverWebhook.execute(deliveryId);
  }
}
