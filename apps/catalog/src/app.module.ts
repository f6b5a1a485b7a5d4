import { Module, type DynamicModule } from '@nestjs/common';
import { CatalogModule } from '@gen/catalog';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule } from '@gen/platform';

/**
 * The catalog service on its own (distributed mode): the catalog file, loaded and validated at start. It
 * mounts none of the catalog's routes, which the gateway serves (docs/architecture.md, "Which app serves
 * which routes"), so it needs no accounts module and no credential verifier; it will answer the catalog port
 * once domain calls go through the service transport.
 */
@Module({})
export class CatalogAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: CatalogAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [], appName: 'catalog' }),
        CatalogModule.forRoot({ file: config.CATALOG_FILE, http: false }),
      ],
    };
  }
}
