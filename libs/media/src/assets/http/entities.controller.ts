import { Controller, Get, Header, Param, Query, Req } from '@nestjs/common';
import { ApiOperation, NoQuery, QueryPipe, SchemaPipe } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { ReadEntitiesUseCase } from '../use-cases/read-entities.use-case';
import { EntityId, EntityPageResult, EntityResult, ListEntitiesQuery } from './asset.dto';
import { ENTITY, ENTITY_ID_WORDS, PAGING_WORDS, responses } from './operation-docs';

/** `/api/v1/assets/entities`: the account's characters, read only (API key). Delegates only. */
@Controller('api/v1/assets/entities')
export class EntitiesController {
  constructor(private readonly entities: ReadEntitiesUseCase) {}

  @Get()
  @ApiOperation({
    tags: ['assets'],
    summary: "List the account's characters (read only).",
    description:
      'Characters are made by operators (admin API, CLI); the API reads them. Oldest first, cursor paging; each image with a fresh preview link.',
    parameters: PAGING_WORDS,
    responses: responses(
      'One page of characters.',
      EntityPageResult,
      { items: [ENTITY] },
      [400, 401, 403, 429, 500],
    ),
  })
  @Header('cache-control', 'no-store')
  list(@Req() request: FastifyRequest, @Query(new QueryPipe(ListEntitiesQuery)) query: ListEntitiesQuery) {
    return this.entities.list(request.edge!.principal!.accountId, query);
  }

  @Get(':entityId')
  @ApiOperation({
    tags: ['assets'],
    summary: 'One character with its ordered images (read only).',
    description: "Another account's character is 404.",
    parameters: [ENTITY_ID_WORDS],
    responses: responses('The character.', EntityResult, ENTITY, [400, 401, 403, 404, 429, 500]),
  })
  @Header('cache-control', 'no-store')
  read(
    @Req() request: FastifyRequest,
    @Param('entityId', new SchemaPipe(EntityId, 'entityId')) entityId: string,
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
  ) {
    return this.entities.get(request.edge!.principal!.accountId, entityId);
  }
}
