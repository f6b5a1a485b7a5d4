import { Module, type DynamicModule } from '@nestjs/common';
import { AccountsModule, accountsOpenApi } from '@gen/accounts';
import { BillingModule, billingOpenApi } from '@gen/billing';
import { CatalogModule, catalogOpenApi } from '@gen/catalog';
import { ConsoleWebModule } from '@gen/console-web';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, ProvidersModule, composeDomains, quoteSigningKey } from '@gen/platform';
import { ChatExecutionModule, RunnerModule } from '@gen/runner';
import { TasksModule, tasksOpenApi } from '@gen/tasks';
import { CompatModule, compatOpenApi } from '@gen/protocols';
import { AssetsModule, MediaModule, assetsOpenApi, mediaOpenApi } from '@gen/media';
import { WebhooksModule, endpointsOpenApi, webhooksOpenApi } from '@gen/webhooks';

/** Every service's module in one process (embedded mode). */
@Module({})
export class EmbeddedModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: EmbeddedModule,
      imports: [
        PlatformModule.forRoot({
          config,
          logger,
          openApi: [
            accountsOpenApi,
            billingOpenApi,
            catalogOpenApi,
            tasksOpenApi,
            webhooksOpenApi,
            endpointsOpenApi,
            compatOpenApi,
            mediaOpenApi,
            assetsOpenApi,
          ],
        }),
        composeDomains(
          AccountsModule.forRoot({ http: true }),
          BillingModule.forRoot({ http: true }),
          MediaModule.forRoot({ http: true, workers: true }),
          // Its TASK_EVENT_LISTENERS lets the tasks domain skip terminal events that nothing would read.
          WebhooksModule.forRoot({ workers: true, http: true }),
        ),
        // The asset library reads files through FILES_PORT (MediaModule, composed above).
        AssetsModule.forRoot({ http: true }),
        CatalogModule.forRoot({ file: config.CATALOG_FILE }),
        TasksModule.forRoot({ quoteKey: quoteSigningKey, workers: true, http: true, compat: true }),
        ProvidersModule,
        ChatExecutionModule,
        RunnerModule,
        CompatModule,
        // The web console's pages at /console, beside the console sign-in of the accounts module.
        ConsoleWebModule.forRoot(),
      ],
    };
  }
}
