import { Module, type DynamicModule } from '@nestjs/common';
import { CatalogModule, catalogOpenApi } from '@gen/catalog';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule } from '@gen/platform';

/**
 * The catalog service on its own (distributed mode): the catalog file, loaded and validated at start, and the
 * catalog's routes (`/api/v1/models/*` priced for the caller, `/v1/models`, the public
 * `/console/v1/catalog/models`). API keys are the gateway's, over the service transport (main.ts).
 */
@Module({})
export class CatalogAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: CatalogAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [catalogOpenApi], appName: 'catalog' }),
        CatalogModule.forRoot({ file: config.CATALOG_FILE, http: true }),
      ],
    };
  }
}
