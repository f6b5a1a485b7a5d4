import { Module, type DynamicModule } from '@nestjs/common';
import { CatalogModule, catalogOpenApi } from '@gen/catalog';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule } from '@gen/platform';

/**
 * The catalog service on its own (distributed mode): the catalog file, loaded and validated at start, and
 * its routes. Until domain calls go through the service transport, this app has no accounts module, so
 * its key-authenticated routes refuse every key (fail closed); the public catalog needs none.
 */
@Module({})
export class CatalogAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: CatalogAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [catalogOpenApi] }),
        CatalogModule.forRoot({ file: config.CATALOG_FILE }),
      ],
    };
  }
}
