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
import { NoQuery, QueryPipe, SchemaPipe } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { DeleteAssetUseCase } from '../use-cases/delete-asset.use-case';
import { GetAssetUsageUseCase } from '../use-cases/get-asset-usage.use-case';
import { GetAssetUseCase } from '../use-cases/get-asset.use-case';
import { ListAssetsUseCase } from '../use-cases/list-assets.use-case';
import { SaveAssetUseCase } from '../use-cases/save-asset.use-case';
import { UpdateAssetUseCase } from '../use-cases/update-asset.use-case';
import { AssetId, ListAssetsQuery, SaveAssetBody, UpdateAssetBody } from './asset.dto';

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
  @Header('cache-control', 'no-store')
  list(@Req() request: FastifyRequest, @Query(new QueryPipe(ListAssetsQuery)) query: ListAssetsQuery) {
    return this.listAssets.execute(request.edge!.principal!, query);
  }

  @Get('usage')
  @Header('cache-control', 'no-store')
  usageOf(@Req() request: FastifyRequest, @Query(noQuery) _query: NoQuery) {
    return this.usage.execute(request.edge!.principal!.accountId);
  }

  @Get(':assetId')
  @Header('cache-control', 'no-store')
  read(
    @Req() request: FastifyRequest,
    @Param('assetId', assetIdOf) assetId: string,
    @Query(noQuery) _query: NoQuery,
  ) {
    return this.getAsset.execute(request.edge!.principal!, assetId);
  }

  @Patch(':assetId')
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
  @Header('cache-control', 'no-store')
  remove(
    @Req() request: FastifyRequest,
    @Param('assetId', assetIdOf) assetId: string,
    @Query(noQuery) _query: NoQuery,
  ) {
    return this.deleteAsset.execute(request.edge!.principal!, assetId);
  }
}
