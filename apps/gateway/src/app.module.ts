import { Module, type DynamicModule } from '@nestjs/common';
import { AccountsModule, accountsOpenApi } from '@gen/accounts';
import { BillingModule, billingOpenApi } from '@gen/billing';
import { CatalogModule, catalogOpenApi } from '@gen/catalog';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, composeDomains, quoteSigningKey } from '@gen/platform';
import { TasksModule, tasksOpenApi } from '@gen/tasks';

/**
 * The native edge, administration, the model and task routes and the OpenAPI document. Until domain calls go
 * through the service transport (libs/transport), it hosts the accounts, billing and tasks modules in-process
 * behind their ports, without their background work: their writes reach the other services through each
 * schema's outbox, which the billing and tasks apps relay to Kafka.
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
          openApi: [accountsOpenApi, billingOpenApi, catalogOpenApi, tasksOpenApi],
        }),
        composeDomains(AccountsModule, BillingModule.forRoot({ workers: false })),
        CatalogModule.forRoot({ file: config.CATALOG_FILE }),
        TasksModule.forRoot({ quoteKey: quoteSigningKey, workers: false }),
      ],
    };
  }
}
