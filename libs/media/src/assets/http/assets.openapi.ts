import { openApiOf, type OpenApiFragment } from '@gen/edge';
import { AdminAssetsController } from './admin-assets.controller';
import { AssetsController } from './assets.controller';
import { EntitiesController } from './entities.controller';

/**
 * The asset library routes (API key) and their administration (admin token), generated from their controllers
 * (routes, pipes, @ApiOperation). EntitiesController first: its concrete `/api/v1/assets/entities` paths come
 * before the templated `/api/v1/assets/{assetId}` that would also match them (as the router serves them).
 */
export const assetsOpenApi: OpenApiFragment = openApiOf([
  EntitiesController,
  AssetsController,
  AdminAssetsController,
]);
