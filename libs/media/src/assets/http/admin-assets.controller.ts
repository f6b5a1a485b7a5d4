import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, NoQuery, QueryPipe, SchemaPipe } from '@gen/edge';
import { ASSET_PLANS } from '../domain/asset-plans';
import { ManageAssetLimitsUseCase } from '../use-cases/manage-asset-limits.use-case';
import { ManageEntitiesUseCase } from '../use-cases/manage-entities.use-case';
import {
  AccountAssetUsageResult,
  AccountIdParam,
  CreateEntityBody,
  DeletedEntityResult,
  PutAssetLimitsBody,
} from './admin-assets.dto';
import { EntityId, EntityPageResult, EntityResult, ListEntitiesQuery } from './asset.dto';
import {
  ACCOUNT_ID,
  ACCOUNT_ID_WORDS,
  ADMIN_SECURITY,
  ASSET,
  ENTITY,
  ENTITY_ID_WORDS,
  PAGING_WORDS,
  USAGE,
  responses,
} from './operation-docs';

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
  @ApiOperation({
    tags: ['admin'],
    summary: "An account's asset plan, limits and usage.",
    security: ADMIN_SECURITY,
    parameters: [ACCOUNT_ID_WORDS],
    responses: responses(
      'Plan, limits and usage.',
      AccountAssetUsageResult,
      { accountId: ACCOUNT_ID, ...USAGE },
      [400, 401, 404, 500],
    ),
  })
  readLimits(@Param('accountId', accountIdOf) accountId: string, @Query(noQuery) _query: NoQuery) {
    return this.limits.get(accountId);
  }

  @Put('asset-limits')
  @ApiOperation({
    tags: ['admin'],
    summary: "Set an account's asset plan, optionally overriding its limits.",
    description:
      "Replaces the setting: a limit left out is the plan's. Lowering a limit below the library's usage keeps its assets and refuses new ones (403).",
    security: ADMIN_SECURITY,
    parameters: [ACCOUNT_ID_WORDS],
    requestBody: { example: { plan: 'pro', count: 250000 } },
    responses: responses(
      'The new plan, limits and usage.',
      AccountAssetUsageResult,
      {
        accountId: ACCOUNT_ID,
        plan: 'pro',
        usedBytes: 48213,
        assetCount: 1,
        limits: { bytes: ASSET_PLANS.pro.bytes, count: 250000 },
      },
      [400, 401, 404, 413, 500],
    ),
  })
  putLimits(
    @Param('accountId', accountIdOf) accountId: string,
    @Query(noQuery) _query: NoQuery,
    @Body(new SchemaPipe(PutAssetLimitsBody)) body: PutAssetLimitsBody,
  ) {
    return this.limits.put(accountId, body);
  }

  @Post('asset-entities')
  @ApiOperation({
    tags: ['admin'],
    summary: 'Make a character of the account from ordered images.',
    description:
      'Each image must be the `service://files/...` URI of a ready file of that account (400 naming `images.<n>` otherwise). Characters do not count toward the asset limits.',
    security: ADMIN_SECURITY,
    parameters: [ACCOUNT_ID_WORDS],
    requestBody: { example: { name: ENTITY.name, images: [ASSET.uri] } },
    responses: responses('The character.', EntityResult, ENTITY, [400, 401, 404, 413, 500]),
  })
  @HttpCode(200)
  createEntity(
    @Param('accountId', accountIdOf) accountId: string,
    @Query(noQuery) _query: NoQuery,
    @Body(new SchemaPipe(CreateEntityBody)) body: CreateEntityBody,
  ) {
    return this.manageEntities.create(accountId, body);
  }

  @Get('asset-entities')
  @ApiOperation({
    tags: ['admin'],
    summary: "List the account's characters.",
    security: ADMIN_SECURITY,
    parameters: [ACCOUNT_ID_WORDS, ...PAGING_WORDS],
    responses: responses(
      'One page of characters.',
      EntityPageResult,
      { items: [ENTITY] },
      [400, 401, 404, 500],
    ),
  })
  listEntities(
    @Param('accountId', accountIdOf) accountId: string,
    @Query(new QueryPipe(ListEntitiesQuery)) query: ListEntitiesQuery,
  ) {
    return this.manageEntities.list(accountId, query);
  }

  @Delete('asset-entities/:entityId')
  @ApiOperation({
    tags: ['admin'],
    summary: 'Delete a character of the account (its files stay).',
    security: ADMIN_SECURITY,
    parameters: [ACCOUNT_ID_WORDS, ENTITY_ID_WORDS],
    responses: responses(
      'Deleted.',
      DeletedEntityResult,
      { entityId: ENTITY.entityId, deleted: true },
      [400, 401, 404, 500],
    ),
  })
  deleteEntity(
    @Param('accountId', accountIdOf) accountId: string,
    @Param('entityId', new SchemaPipe(EntityId, 'entityId')) entityId: string,
    @Query(noQuery) _query: NoQuery,
  ) {
    return this.manageEntities.delete(accountId, entityId);
  }
}
