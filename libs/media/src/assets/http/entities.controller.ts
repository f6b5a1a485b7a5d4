import { Controller, Get, Header, Param, Query, Req } from '@nestjs/common';
import { NoQuery, QueryPipe, SchemaPipe } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { ReadEntitiesUseCase } from '../use-cases/read-entities.use-case';
import { EntityId, ListEntitiesQuery } from './asset.dto';

/** `/api/v1/assets/entities`: the account's characters, read only (API key). Delegates only. */
@Controller('api/v1/assets/entities')
export class EntitiesController {
  constructor(private readonly entities: ReadEntitiesUseCase) {}

  @Get()
  @Header('cache-control', 'no-store')
  list(@Req() request: FastifyRequest, @Query(new QueryPipe(ListEntitiesQuery)) query: ListEntitiesQuery) {
    return this.entities.list(request.edge!.principal!.accountId, query);
  }

  @Get(':entityId')
  @Header('cache-control', 'no-store')
  read(
    @Req() request: FastifyRequest,
    @Param('entityId', new SchemaPipe(EntityId, 'entityId')) entityId: string,
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
  ) {
    return this.entities.get(request.edge!.principal!.accountId, entityId);
  }
}
