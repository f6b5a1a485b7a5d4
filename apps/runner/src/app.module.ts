import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig, Logger } from '@gen/core';
import { CatalogModule } from '@gen/catalog';
import { MediaModule } from '@gen/media';
import { PlatformModule, ProvidersModule, composeDomains } from '@gen/platform';
import { RunnerModule } from '@gen/runner';

/**
 * The runner on its own (distributed mode): executes created tasks through the provider port and stores their
 * outputs in S3. Media inputs (`service://` files, https URLs) are read through MEDIA_INPUTS, the media
 * domain's port, hosted here without its routes or workers.
 */
@Module({})
export class RunnerAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: RunnerAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [], appName: 'runner' }),
        // The runner reads the model bindings (adapter, upstream, credentials, fallbacks) from the same file.
        CatalogModule.forRoot({ file: config.CATALOG_FILE, http: false }),
        composeDomains(MediaModule.forRoot({ http: false, workers: false })),
        ProvidersModule,
        RunnerModule,
      ],
    };
  }
}
