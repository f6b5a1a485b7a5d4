import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig, Logger } from '@gen/core';
import { CatalogModule } from '@gen/catalog';
import { PlatformModule, ProvidersModule } from '@gen/platform';
import { RunnerModule } from '@gen/runner';

/**
 * The runner on its own (distributed mode): executes created tasks through the provider port and stores their
 * outputs in S3. Media inputs (`service://` files, https URLs) are read by the media app through MEDIA_INPUTS,
 * over the service transport (main.ts).
 */
@Module({})
export class RunnerAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: RunnerAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [], appName: 'runner' }),
        // The runner reads the model bindings (adapter, upstream, credentials, fallbacks) from the same file.
        CatalogModule.forRoot({ source: 'remote', http: false }),
        ProvidersModule,
        RunnerModule,
      ],
    };
  }
}
