import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig, Logger } from '@gen/core';
import { AssetsModule, MediaModule } from '@gen/media';
import { PlatformModule } from '@gen/platform';

/**
 * The media service on its own (distributed mode): a worker app. It runs the media domain's background work,
 * the retention sweep of uploads never committed; the media routes are served by the gateway, the one entry
 * point (docs/architecture.md, "Which app serves which routes").
 */
@Module({})
export class MediaAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: MediaAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [], appName: 'media' }),
        MediaModule.forRoot({ http: false, workers: true }),
        // Migrates the assets schema; its routes are the gateway's.
        AssetsModule.forRoot({ http: false }),
      ],
    };
  }
}
