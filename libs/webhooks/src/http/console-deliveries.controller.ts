import { Controller, Get, Header, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { QueryPipe, SchemaPipe } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { ListEndpointMessagesUseCase } from '../use-cases/list-endpoint-messages.use-case';
import { ListTaskWebhooksUseCase } from '../use-cases/list-task-webhooks.use-case';
import { RedeliverWebhookUseCase } from '../use-cases/redeliver-webhook.use-case';
import { DeliveriesQuery, DeliveryIdParam, EndpointMessagesQuery } from './delivery.dto';
import { EndpointIdParam } from './endpoint.dto';

const accountOf = (request: FastifyRequest): string => request.edge!.console!.accountId;

/**
 * What the web console shows of deliveries (console session): a task's callback delivery and endpoint
 * messages, an endpoint's latest messages, each with its attempts, and redelivery; only the session's
 * account's. Delegates only.
 */
@Controller('console/v1')
export class ConsoleDeliveriesController {
  constructor(
    private readonly taskWebhooks: ListTaskWebhooksUseCase,
    private readonly endpointMessages: ListEndpointMessagesUseCase,
    private readonly redeliverWebhook: RedeliverWebhookUseCase,
  ) {}

  /**
   * GET /console/v1/webhook-deliveries?taskId= : a task's callback delivery and endpoint messages (under the
   * webhooks prefix, like the admin route, so that an ingress sends it to the webhooks app by path).
   */
  @Get('webhook-deliveries')
  @Header('cache-control', 'no-store')
  ofTask(@Req() request: FastifyRequest, @Query(new QueryPipe(DeliveriesQuery)) query: DeliveriesQuery) {
    return this.taskWebhooks.execute(query.taskId, accountOf(request));
  }

  /** GET /console/v1/webhook-endpoints/{id}/messages?limit= */
  @Get('webhook-endpoints/:id/messages')
  @Header('cache-control', 'no-store')
  ofEndpoint(
    @Req() request: FastifyRequest,
    @Param('id', new SchemaPipe(EndpointIdParam, 'id')) id: string,
    @Query(new QueryPipe(EndpointMessagesQuery)) query: EndpointMessagesQuery,
  ) {
    return this.endpointMessages.execute(accountOf(request), id, query.limit ? Number(query.limit) : 20);
  }

  /** POST /console/v1/webhook-deliveries/{deliveryId}/redeliver: `whd_` or `msg_`, sent again now, same id. */
  @Post('webhook-deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  redeliver(
    @Req() request: FastifyRequest,
    @Param('deliveryId', new SchemaPipe(DeliveryIdParam, 'deliveryId')) deliveryId: string,
  ) {
    return this.redeliverWebhook.execute(deliveryId, accountOf(request));
  }
}
