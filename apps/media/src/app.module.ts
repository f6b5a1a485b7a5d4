import { Module, type DynamicModule } from '@nestjs/common';
import { AccountsModule } from '@gen/accounts';
import { BillingModule } from '@gen/billing';
import type { AppConfig, Logger } from '@gen/core';
import { AssetsModule, MediaModule, assetsOpenApi, mediaOpenApi } from '@gen/media';
import { PlatformModule, composeDomains } from '@gen/platform';

/**
 * The media service on its own (distributed mode): the media family (upload tickets, commits, imports,
 * the asset library and characters), so that uploads and their verification scale apart from the gateway
 * (docs/architecture.md, "Which app serves which routes"), and the media domain's background work, the
 * retention sweep of uploads never committed. It hosts the accounts module for its ports only (API keys, the
 * admin token of the asset-limit and character routes), with billing's funds port that it needs.
 */
@Module({})
export class MediaAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: MediaAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [mediaOpenApi, assetsOpenApi], appName: 'media' }),
        composeDomains(
          AccountsModule.forRoot({ http: false }),
          // The accounts module's account creation needs billing's funds port; no route or worker of billing.
          BillingModule.forRoot({ http: false, workers: false }),
          MediaModule.forRoot({ http: true, workers: true }),
        ),
        // The asset library reads files through FILES_PORT (MediaModule, composed above).
        AssetsModule.forRoot({ http: true }),
      ],
    };
  }
}
