import { Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { AdminAssetsController } from './http/admin-assets.controller';
import { AssetsController } from './http/assets.controller';
import { EntitiesController } from './http/entities.controller';
import { PreviewLinks } from './mappers/preview-links';
import { AssetLimitsRepository } from './persistence/asset-limits.repository';
import { AssetRepository } from './persistence/asset.repository';
import { AssetsMigrations } from './persistence/assets-schema';
import { EntityRepository } from './persistence/entity.repository';
import { DeleteAssetUseCase } from './use-cases/delete-asset.use-case';
import { GetAssetUsageUseCase } from './use-cases/get-asset-usage.use-case';
import { GetAssetUseCase } from './use-cases/get-asset.use-case';
import { ListAssetsUseCase } from './use-cases/list-assets.use-case';
import { ManageAssetLimitsUseCase } from './use-cases/manage-asset-limits.use-case';
import { ManageEntitiesUseCase } from './use-cases/manage-entities.use-case';
import { ReadEntitiesUseCase } from './use-cases/read-entities.use-case';
import { SaveAssetUseCase } from './use-cases/save-asset.use-case';
import { UpdateAssetUseCase } from './use-cases/update-asset.use-case';

/** The schema and its data access: every process that composes the library (migrations run at start). */
export const ASSET_STORE_PROVIDERS: Provider[] = [
  AssetsMigrations,
  AssetRepository,
  AssetLimitsRepository,
  EntityRepository,
];

/** The routes' use cases: need FILES_PORT, OBJECT_STORAGE and ACCOUNT_DIRECTORY besides DATABASE and CLOCK. */
export const ASSET_HTTP_PROVIDERS: Provider[] = [
  PreviewLinks,
  SaveAssetUseCase,
  ListAssetsUseCase,
  GetAssetUseCase,
  UpdateAssetUseCase,
  DeleteAssetUseCase,
  GetAssetUsageUseCase,
  ReadEntitiesUseCase,
  ManageAssetLimitsUseCase,
  ManageEntitiesUseCase,
];

export const ASSET_CONTROLLERS: Type<unknown>[] = [
  AssetsController,
  EntitiesController,
  AdminAssetsController,
];

export interface AssetsModuleOptions {
  /**
   * Serve `/api/v1/assets/**` (API key) and `/admin/v1/accounts/{id}/asset-*` (admin token): the media app;
   * embedded mode. Without it the module only keeps its schema migrated.
   */
  readonly http: boolean;
}

/**
 * The asset library: the account's saved files with per-account quotas (plan, bytes, count) and
 * Idempotency-Key on save, and its read-only characters. Needs DATABASE and CLOCK, and with `http` also
 * FILES_PORT (the media files), OBJECT_STORAGE (preview links) and ACCOUNT_DIRECTORY (admin routes), from
 * the composing app.
 */
@Module({})
export class AssetsModule {
  static forRoot(options: AssetsModuleOptions): DynamicModule {
    return {
      module: AssetsModule,
      controllers: options.http ? ASSET_CONTROLLERS : [],
      providers: [...ASSET_STORE_PROVIDERS, ...(options.http ? ASSET_HTTP_PROVIDERS : [])],
    };
  }
}
