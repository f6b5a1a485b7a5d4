import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  type PipeTransform,
} from '@nestjs/common';
import {
  ApiOperation,
  CONSOLE_SECURITY,
  NoQuery,
  QueryPipe,
  SchemaPipe,
  envelopeResponse,
  errorResponses,
  type ApiOperationDoc,
} from '@gen/edge';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { CreateEndpointUseCase } from '../use-cases/create-endpoint.use-case';
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
import { ENDPOINT_EVENTS } from '../domain/event-names';
import { GetEndpointUseCase } from '../use-cases/get-endpoint.use-case';
import { ListEndpointsUseCase } from '../use-cases/list-endpoints.use-case';
import { RotateEndpointSecretUseCase } from '../use-cases/rotate-endpoint-secret.use-case';
import { UpdateEndpointUseCase } from '../use-cases/update-endpoint.use-case';

/** A body that may be left out (spec: "Omitting the body takes the default"); a body given is validated. */
class OptionalBodyPipe implements PipeTransform<unknown, RotateSecretBody> {
  /** What the document says of the body: this schema, not required. */
  readonly schema = RotateSecretBody;
  readonly optional = true;
  private readonly inner = new SchemaPipe(RotateSecretBody);

  transform(value: unknown): RotateSecretBody {
    return value === undefined ? {} : this.inner.transform(value);
  }
}

const accountOf = (request: FastifyRequest): string => request.edge!.console!.accountId;
/** The endpoint id of the path, checked by its pattern before any query. */
const endpointIdOf = new SchemaPipe(EndpointIdParam, 'id');

/** The document of an endpoint operation: a console operation answering `result` in the envelope. */
const op = (
  summary: string,
  result: TSchema,
  options: { errors?: number[]; description?: string; id?: boolean } = {},
): ApiOperationDoc => ({
  tags: ['console'],
  summary,
  ...(options.description ? { description: options.description } : {}),
  security: CONSOLE_SECURITY,
  ...(options.id
    ? { parameters: [{ name: 'id', in: 'path', description: 'Endpoint id (`whe_...`).' }] }
    : {}),
  responses: {
    ...envelopeResponse(summary, result),
    ...errorResponses(options.errors ?? [400, 401, 404, 413, 500]),
  },
});

/** How deliveries to an endpoint go: the spec leaves the body version, schedule and URL lifetime to us. */
const DELIVERIES =
  'Deliveries (Standard Webhooks): one POST per terminal task event the endpoint subscribes to, body `{"id":"msg_...","type","created","api_version":"2026-11-01","data":{"object":<task record>}}`, built once when the event is queued (asset URLs signed then, valid 24 hours) and resent byte for byte; headers `webhook-id`, `webhook-timestamp`, `webhook-signature` (`v1,<base64 HMAC-SHA256>` per active secret), `User-Agent: Service-Webhook/2`. Any 2xx acknowledges and resets consecutiveFailures; 410 disables the endpoint (`gone_410`) and drops its queued messages; any other failure counts up consecutiveFailures and is retried on WEBHOOK_RETRY_SCHEDULE, the schedule of task callbacks (default 10 s, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h: eight attempts in all). No automatic disabling otherwise.';

/** Account-level webhook endpoints, managed with a console session credential (the edge has verified it). */
@Controller('console/v1')
export class EndpointsController {
  constructor(
    private readonly createEndpoint: CreateEndpointUseCase,
    private readonly listEndpoints: ListEndpointsUseCase,
    private readonly getEndpoint: GetEndpointUseCase,
    private readonly updateEndpoint: UpdateEndpointUseCase,
    private readonly rotateSecret: RotateEndpointSecretUseCase,
  ) {}

  /** POST /console/v1/webhook-endpoints: the answer carries the secret, once. */
  @Post('webhook-endpoints')
  @ApiOperation(
    op('Register a webhook endpoint; the answer shows its secret once.', EndpointWithSecretResult, {
      errors: [400, 401, 409, 413, 500],
      description:
        'At most 16 endpoints per account: the 17th is 409. The URL is checked now and again at every delivery against the resolved address. ' +
        DELIVERIES,
    }),
  )
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  create(@Req() request: FastifyRequest, @Body(new SchemaPipe(CreateEndpointBody)) body: CreateEndpointBody) {
    return this.createEndpoint.execute(accountOf(request), body);
  }

  /** GET /console/v1/webhook-endpoints */
  @Get('webhook-endpoints')
  @ApiOperation(
    op("List the account's webhook endpoints (never their secrets).", EndpointListResult, {
      errors: [400, 401, 500],
      description:
        'The specification does not show the path of this call (Events, item 9); this is our choice. Oldest first.',
    }),
  )
  @Header('cache-control', 'no-store')
  list(@Req() request: FastifyRequest, @Query(new QueryPipe(NoQuery)) _query: NoQuery) {
    return this.listEndpoints.execute(accountOf(request));
  }

  /** GET /console/v1/webhook-endpoints/{id} */
  @Get('webhook-endpoints/:id')
  @ApiOperation(
    op('Read a webhook endpoint (never its secret).', EndpointResult, {
      errors: [400, 401, 404, 500],
      id: true,
    }),
  )
  @Header('cache-control', 'no-store')
  read(
    @Req() request: FastifyRequest,
    @Param('id', endpointIdOf) id: string,
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
  ) {
    return this.getEndpoint.execute(accountOf(request), id);
  }

  /** PATCH /console/v1/webhook-endpoints/{id} */
  @Patch('webhook-endpoints/:id')
  @ApiOperation(
    op('Change a webhook endpoint, for example `enabled: false`.', EndpointResult, {
      id: true,
      description:
        'The specification does not show the effects of re-enabling (Events, item 9). Ours: `enabled: true` clears the status whatever disabled the endpoint (also `gone_410`): status `enabled`, disabledReason null, consecutiveFailures 0. Messages dropped while it was disabled are not sent again (an operator can redeliver one through the admin API); events from then on are delivered. A changed `url` applies from the next attempt, also of messages being retried.',
    }),
  )
  @Header('cache-control', 'no-store')
  update(
    @Req() request: FastifyRequest,
    @Param('id', endpointIdOf) id: string,
    @Body(new SchemaPipe(UpdateEndpointBody)) body: UpdateEndpointBody,
  ) {
    return this.updateEndpoint.execute(accountOf(request), id, body);
  }

  /** POST /console/v1/webhook-endpoints/{id}/rotate-secret: the answer carries the new secret, once. */
  @Post('webhook-endpoints/:id/rotate-secret')
  @ApiOperation(
    op(
      'Rotate the secret of a webhook endpoint; the answer shows the new one once.',
      EndpointWithSecretResult,
      {
        id: true,
        description:
          'During the grace period deliveries carry two signatures (new and replaced secret); either suffices. Omitting the body takes the default of 86400 seconds. A rotation during a grace period ends the earlier one: only the last two secrets are kept.',
      },
    ),
  )
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  rotate(
    @Req() request: FastifyRequest,
    @Param('id', endpointIdOf) id: string,
    @Body(new OptionalBodyPipe()) body: RotateSecretBody,
  ) {
    return this.rotateSecret.execute(accountOf(request), id, body.gracePeriodSeconds);
  }

  /** GET /console/v1/webhook-events: the event names an endpoint can subscribe to. */
  @Get('webhook-events')
  @ApiOperation(
    op('List the event names an endpoint can subscribe to.', EventNamesResult, { errors: [400, 401, 500] }),
  )
  @Header('cache-control', 'no-store')
  events(@Query(new QueryPipe(NoQuery)) _query: NoQuery) {
    return { items: ENDPOINT_EVENTS.map(({ name, description }) => ({ name, description })) };
  }
}
