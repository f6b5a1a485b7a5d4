import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig, Logger } from '@gen/core';
import { AssetsModule, MediaModule, assetsOpenApi, mediaOpenApi } from '@gen/media';
import { PlatformModule, composeDomains } from '@gen/platform';

/**
 * The media service on its own (distributed mode): the media family (upload tickets, commits, imports,
 * the asset library and characters), so that uploads and their verification scale apart from the gateway
 * (docs/architecture.md, "Which app serves which routes"), the media domain's background work (the retention
 * sweep of uploads never committed), and the media ports other apps call over the service transport (FILES_PORT,
 * MEDIA_INPUTS). API keys, the admin token and the account directory are the gateway's (main.ts).
 */
@Module({})
export class MediaAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: MediaAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [mediaOpenApi, assetsOpenApi], appName: 'media' }),
        composeDomains(MediaModule.forRoot({ http: true, workers: true })),
        // The asset library reads files through FILES_PORT (MediaModule, composed above).
        AssetsModule.forRoot({ http: true }),
      ],
    };
  }
}
