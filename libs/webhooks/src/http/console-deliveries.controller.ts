import { Controller, Get, Header, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiOperation,
  CONSOLE_SECURITY,
  QueryPipe,
  SchemaPipe,
  envelopeResponse,
  errorResponses,
} from '@gen/edge';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { ListEndpointMessagesUseCase } from '../use-cases/list-endpoint-messages.use-case';
import { ListTaskWebhooksUseCase } from '../use-cases/list-task-webhooks.use-case';
import { RedeliverWebhookUseCase } from '../use-cases/redeliver-webhook.use-case';
import {
  DeliveriesQuery,
  DeliveryIdParam,
  DeliveryResult,
  EndpointMessagesQuery,
  MessageResult,
  TaskWebhooksResult,
  withAttempts,
} from './delivery.dto';
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
  @ApiOperation({
    tags: ['console'],
    summary:
      "What was sent about one of the account's tasks: its callback delivery and endpoint messages, with every attempt.",
    description:
      "The shape of `GET /admin/v1/webhook-deliveries`, for the session's account only. 404 when the account has neither for the task (no callBackUrl and no subscribed endpoint, not sent yet, or not its task: the same answer).",
    security: CONSOLE_SECURITY,
    responses: {
      ...envelopeResponse(
        'The callback delivery (at most one) and the endpoint messages.',
        TaskWebhooksResult,
      ),
      ...errorResponses([400, 401, 404, 500]),
    },
  })
  @Header('cache-control', 'no-store')
  ofTask(@Req() request: FastifyRequest, @Query(new QueryPipe(DeliveriesQuery)) query: DeliveriesQuery) {
    return this.taskWebhooks.execute(query.taskId, accountOf(request));
  }

  /** GET /console/v1/webhook-endpoints/{id}/messages?limit= */
  @Get('webhook-endpoints/:id/messages')
  @ApiOperation({
    tags: ['console'],
    summary: "An endpoint's latest messages, newest first, each with its attempts.",
    description: "Another account's endpoint is 404.",
    security: CONSOLE_SECURITY,
    responses: {
      ...envelopeResponse(
        'The latest messages.',
        Type.Object({ items: Type.Array(withAttempts(MessageResult)) }, { additionalProperties: false }),
      ),
      ...errorResponses([400, 401, 404, 500]),
    },
  })
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
  @ApiOperation({
    tags: ['console'],
    summary:
      'Send a callback delivery (`whd_`) or endpoint message (`msg_`) of the account again now, same id.',
    description:
      "As `POST /admin/v1/webhook-deliveries/{deliveryId}/redeliver`, for the session's account only (another account's is 404). With the session cookie, send `X-CSRF-Token` (else 403, nothing changed).",
    security: CONSOLE_SECURITY,
    responses: {
      ...envelopeResponse(
        'The delivery or message, pending again.',
        Type.Union([DeliveryResult, MessageResult]),
      ),
      ...errorResponses([400, 401, 403, 404, 500]),
    },
  })
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  redeliver(
    @Req() request: FastifyRequest,
    @Param('deliveryId', new SchemaPipe(DeliveryIdParam, 'deliveryId')) deliveryId: string,
  ) {
    return this.redeliverWebhook.execute(deliveryId, accountOf(request));
  }
}
