import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
} from '@nestjs/common';
import { ApiOperation, NoQuery, QueryPipe, SchemaPipe } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { DeleteAssetUseCase } from '../use-cases/delete-asset.use-case';
import { GetAssetUsageUseCase } from '../use-cases/get-asset-usage.use-case';
import { GetAssetUseCase } from '../use-cases/get-asset.use-case';
import { ListAssetsUseCase } from '../use-cases/list-assets.use-case';
import { SaveAssetUseCase } from '../use-cases/save-asset.use-case';
import { UpdateAssetUseCase } from '../use-cases/update-asset.use-case';
import {
  AssetId,
  AssetPageResult,
  AssetResult,
  AssetUsageResult,
  DeletedAssetResult,
  ListAssetsQuery,
  SaveAssetBody,
  UpdateAssetBody,
} from './asset.dto';
import {
  ASSET,
  ASSET_ID_WORDS,
  IDEMPOTENCY,
  LIST_ASSETS_WORDS,
  QUOTA,
  SCOPE,
  USAGE,
  responses,
} from './operation-docs';

const assetIdOf = new SchemaPipe(AssetId, 'assetId');
const noQuery = new QueryPipe(NoQuery);

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/** `/api/v1/assets`: the account's asset library (API key). Delegates only. */
@Controller('api/v1/assets')
export class AssetsController {
  constructor(
    private readonly saveAsset: SaveAssetUseCase,
    private readonly listAssets: ListAssetsUseCase,
    private readonly getAsset: GetAssetUseCase,
    private readonly updateAsset: UpdateAssetUseCase,
    private readonly deleteAsset: DeleteAssetUseCase,
    private readonly usage: GetAssetUsageUseCase,
  ) {}

  @Post()
  @ApiOperation({
    tags: ['assets'],
    summary: 'Save a committed file of the account in its asset library.',
    description: `\`uri\` must be the \`service://files/fil_...\` URI of a ready (committed) file of the caller's account; anything else, including another account's file, is the same 400 and reveals nothing. The answer is the asset with a fresh preview link; \`Cache-Control: no-store\`. ${QUOTA} ${SCOPE}`,
    parameters: [IDEMPOTENCY],
    requestBody: {
      example: { uri: ASSET.uri, name: ASSET.name, favorite: true, collectionId: ASSET.collectionId },
    },
    responses: responses(
      'The saved asset (or, for a repeated Idempotency-Key, the asset it saved).',
      AssetResult,
      ASSET,
      [400, 401, 403, 404, 409, 413, 429, 500],
    ),
  })
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  async save(
    @Req() request: FastifyRequest,
    @Query(noQuery) _query: NoQuery,
    @Body(new SchemaPipe(SaveAssetBody)) body: SaveAssetBody,
  ) {
    const { asset } = await this.saveAsset.execute({
      principal: request.edge!.principal!,
      idempotencyKey: header(request, 'idempotency-key'),
      request: body,
    });
    return asset;
  }

  @Get()
  @ApiOperation({
    tags: ['assets'],
    summary: "List the account's assets: filters, order and cursor paging.",
    description: `Keyset paging like the task list: \`nextCursor\` continues after the last item of the page (absent on the last page), so assets added or removed meanwhile neither repeat nor skip others. A cursor freezes the filters and order of its first page; sending one again with another value is 400, leaving it out keeps it. Names order by their bytes (code points), the same on every database. Unknown, repeated or empty parameters are 400. ${SCOPE}`,
    parameters: LIST_ASSETS_WORDS,
    responses: responses(
      'One page of assets.',
      AssetPageResult,
      { items: [ASSET], nextCursor: 'eyJmaWx0ZXJzIjp7InNvcnQiOiItY3JlYXRlZEF0In19' },
      [400, 401, 403, 429, 500],
    ),
  })
  @Header('cache-control', 'no-store')
  list(@Req() request: FastifyRequest, @Query(new QueryPipe(ListAssetsQuery)) query: ListAssetsQuery) {
    return this.listAssets.execute(request.edge!.principal!, query);
  }

  @Get('usage')
  @ApiOperation({
    tags: ['assets'],
    summary: "The asset library's plan, usage and limits.",
    description: `Usage and limits of the account (every API key of the account sees the same). ${QUOTA}`,
    responses: responses('Plan, usage and limits.', AssetUsageResult, USAGE, [400, 401, 403, 429, 500]),
  })
  @Header('cache-control', 'no-store')
  usageOf(@Req() request: FastifyRequest, @Query(noQuery) _query: NoQuery) {
    return this.usage.execute(request.edge!.principal!.accountId);
  }

  @Get(':assetId')
  @ApiOperation({
    tags: ['assets'],
    summary: 'One asset with a fresh private preview link.',
    description: `The preview link is a signed GET of the file's bytes, valid 15 minutes; every read signs a new one. ${SCOPE}`,
    parameters: [ASSET_ID_WORDS],
    responses: responses('The asset.', AssetResult, ASSET, [400, 401, 403, 404, 429, 500]),
  })
  @Header('cache-control', 'no-store')
  read(
    @Req() request: FastifyRequest,
    @Param('assetId', assetIdOf) assetId: string,
    @Query(noQuery) _query: NoQuery,
  ) {
    return this.getAsset.execute(request.edge!.principal!, assetId);
  }

  @Patch(':assetId')
  @ApiOperation({
    tags: ['assets'],
    summary: 'Rename an asset or change its `favorite` flag.',
    description:
      'Only `name` and `favorite`; any other field (uri, collectionId, ...) is 400 naming it, and an empty body is 400.',
    parameters: [ASSET_ID_WORDS],
    requestBody: { example: { name: 'fox, final', favorite: false } },
    responses: responses(
      'The changed asset.',
      AssetResult,
      { ...ASSET, name: 'fox, final', favorite: false },
      [400, 401, 403, 404, 413, 429, 500],
    ),
  })
  @Header('cache-control', 'no-store')
  update(
    @Req() request: FastifyRequest,
    @Param('assetId', assetIdOf) assetId: string,
    @Query(noQuery) _query: NoQuery,
    @Body(new SchemaPipe(UpdateAssetBody)) body: UpdateAssetBody,
  ) {
    return this.updateAsset.execute(request.edge!.principal!, assetId, body);
  }

  @Delete(':assetId')
  @ApiOperation({
    tags: ['assets'],
    summary: 'Delete an asset from the library.',
    description:
      'The library no longer holds it and its bytes no longer count toward the limits. The file it named stays a file of the account (its own retention applies), usable in task input and savable again.',
    parameters: [ASSET_ID_WORDS],
    responses: responses(
      'Deleted.',
      DeletedAssetResult,
      { assetId: ASSET.assetId, deleted: true },
      [400, 401, 403, 404, 429, 500],
    ),
  })
  @Header('cache-control', 'no-store')
  remove(
    @Req() request: FastifyRequest,
    @Param('assetId', assetIdOf) assetId: string,
    @Query(noQuery) _query: NoQuery,
  ) {
    return this.deleteAsset.execute(request.edge!.principal!, assetId);
  }
}
