import { Module, type DynamicModule } from '@nestjs/common';
import { AccountsModule, accountsOpenApi } from '@gen/accounts';
import { BillingModule, billingOpenApi } from '@gen/billing';
import { CatalogModule, catalogOpenApi } from '@gen/catalog';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, ProvidersModule, composeDomains, quoteSigningKey } from '@gen/platform';
import { ChatExecutionModule } from '@gen/runner';
import { TasksModule, tasksOpenApi } from '@gen/tasks';
import { CompatModule, compatOpenApi } from '@gen/protocols';
import { AssetsModule, MediaModule, assetsOpenApi, mediaOpenApi } from '@gen/media';
import { WebhooksModule, endpointsOpenApi, webhooksOpenApi } from '@gen/webhooks';

/**
 * The one entry point of distributed mode: every public route of the native, console, admin and `/v1/models`
 * families (docs/architecture.md, "Which app serves which routes") and the OpenAPI document. It composes the
 * HTTP layer of each domain, without their background work: their writes reach the worker apps (billing,
 * tasks, webhooks, runner) through each schema's outbox and Kafka, or through rows those apps poll.
 */
@Module({})
export class GatewayAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: GatewayAppModule,
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
          appName: 'gateway',
        }),
        composeDomains(
          AccountsModule.forRoot({ http: true }),
          // Routes only: FUNDS_PORT, HOLDS_PORT and FILES_PORT are the billing and media apps' (main.ts).
          BillingModule.forRoot({ http: true, workers: false, ports: false }),
          MediaModule.forRoot({ http: true, workers: false, ports: false }),
        ),
        // The asset library reads files through FILES_PORT (the media app's).
        AssetsModule.forRoot({ http: true }),
        CatalogModule.forRoot({ file: config.CATALOG_FILE }),
        // Text streams run here, where their client is (CHAT_EXECUTION through the provider port).
        ProvidersModule,
        ChatExecutionModule,
        TasksModule.forRoot({ quoteKey: quoteSigningKey, workers: false, http: true, compat: true }),
        WebhooksModule.forRoot({ workers: false, http: true }),
        CompatModule,
      ],
    };
  }
}
