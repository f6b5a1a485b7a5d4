import { Module, type DynamicModule } from '@nestjs/common';
import { AccountsModule, accountsOpenApi } from '@gen/accounts';
import { BillingModule, billingOpenApi } from '@gen/billing';
import { CatalogModule, catalogOpenApi } from '@gen/catalog';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, composeDomains } from '@gen/platform';

/**
 * The native edge, administration, the model routes and the OpenAPI document. Until domain calls go through
 * the service transport (libs/transport), it hosts the accounts and billing modules in-process behind their
 * ports; the catalog, a file held in memory, it serves itself.
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
          openApi: [accountsOpenApi, billingOpenApi, catalogOpenApi],
        }),
        composeDomains(AccountsModule, BillingModule),
        CatalogModule.forRoot({ file: config.CATALOG_FILE }),
      ],
    };
  }
}
