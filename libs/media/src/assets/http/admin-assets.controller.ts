import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { NoQuery, QueryPipe, SchemaPipe } from '@gen/edge';
import { ManageAssetLimitsUseCase } from '../use-cases/manage-asset-limits.use-case';
import { ManageEntitiesUseCase } from '../use-cases/manage-entities.use-case';
import { AccountIdParam, CreateEntityBody, PutAssetLimitsBody } from './admin-assets.dto';
import { EntityId, ListEntitiesQuery } from './asset.dto';

const accountIdOf = new SchemaPipe(AccountIdParam, 'accountId');
const noQuery = new QueryPipe(NoQuery);

/** `/admin/v1/accounts/{accountId}/asset-*`: operators set asset limits and manage characters. Delegates only. */
@Controller('admin/v1/accounts/:accountId')
export class AdminAssetsController {
  constructor(
    private readonly limits: ManageAssetLimitsUseCase,
    private readonly manageEntities: ManageEntitiesUseCase,
  ) {}

  @Get('asset-limits')
  readLimits(@Param('accountId', accountIdOf) accountId: string, @Query(noQuery) _query: NoQuery) {
    return this.limits.get(accountId);
  }

  @Put('asset-limits')
  putLimits(
    @Param('accountId', accountIdOf) accountId: string,
    @Query(noQuery) _query: NoQuery,
    @Body(new SchemaPipe(PutAssetLimitsBody)) body: PutAssetLimitsBody,
  ) {
    return this.limits.put(accountId, body);
  }

  @Post('asset-entities')
  @HttpCode(200)
  createEntity(
    @Param('accountId', accountIdOf) accountId: string,
    @Query(noQuery) _query: NoQuery,
    @Body(new SchemaPipe(CreateEntityBody)) body: CreateEntityBody,
  ) {
    return this.manageEntities.create(accountId, body);
  }

  @Get('asset-entities')
  listEntities(
    @Param('accountId', accountIdOf) accountId: string,
    @Query(new QueryPipe(ListEntitiesQuery)) query: ListEntitiesQuery,
  ) {
    return this.manageEntities.list(accountId, query);
  }

  @Delete('asset-entities/:entityId')
  deleteEntity(
    @Param('accountId', accountIdOf) accountId: string,
    @Param('entityId', new SchemaPipe(EntityId, 'entityId')) entityId: string,
    @Query(noQuery) _query: NoQuery,
  ) {
    return this.manageEntities.delete(accountId, entityId);
  }
}
