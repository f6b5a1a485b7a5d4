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
import { NoQuery, QueryPipe, SchemaPipe } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { CreateEndpointUseCase } from '../use-cases/create-endpoint.use-case';
import { CreateEndpointBody, EndpointIdParam, RotateSecretBody, UpdateEndpointBody } from './endpoint.dto';
import { ENDPOINT_EVENTS } from '../domain/event-names';
import { GetEndpointUseCase } from '../use-cases/get-endpoint.use-case';
import { ListEndpointsUseCase } from '../use-cases/list-endpoints.use-case';
import { RotateEndpointSecretUseCase } from '../use-cases/rotate-endpoint-secret.use-case';
import { UpdateEndpointUseCase } from '../use-cases/update-endpoint.use-case';

/** A body that may be left out (spec: "Omitting the body takes the default"); a body given is validated. */
class OptionalBodyPipe implements PipeTransform<unknown, RotateSecretBody> {
  private readonly inner = new SchemaPipe(RotateSecretBody);

  transform(value: unknown): RotateSecretBody {
    return value === undefined ? {} : this.inner.transform(value);
  }
}

const accountOf = (request: FastifyRequest): string => request.edge!.console!.accountId;
/** The endpoint id of the path, checked by its pattern before any query. */
const endpointIdOf = new SchemaPipe(EndpointIdParam, 'id');

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
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  create(@Req() request: FastifyRequest, @Body(new SchemaPipe(CreateEndpointBody)) body: CreateEndpointBody) {
    return this.createEndpoint.execute(accountOf(request), body);
  }

  /** GET /console/v1/webhook-endpoints */
  @Get('webhook-endpoints')
  @Header('cache-control', 'no-store')
  list(@Req() request: FastifyRequest, @Query(new QueryPipe(NoQuery)) _query: NoQuery) {
    return this.listEndpoints.execute(accountOf(request));
  }

  /** GET /console/v1/webhook-endpoints/{id} */
  @Get('webhook-endpoints/:id')
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
  @Header('cache-control', 'no-store')
  events(@Query(new QueryPipe(NoQuery)) _query: NoQuery) {
    return { items: ENDPOINT_EVENTS.map(({ name, description }) => ({ name, description })) };
  }
}
