import { Module, type DynamicModule } from '@nestjs/common';
import { AccountsModule, accountsOpenApi } from '@gen/accounts';
import { BillingModule, billingOpenApi } from '@gen/billing';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, composeDomains } from '@gen/platform';

/**
 * The native edge, administration and the OpenAPI document. Until the synchronous service transport lands
 * (distributed-infrastructure issue), it hosts the accounts and billing modules in-process behind their ports.
 */
@Module({})
export class GatewayAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: GatewayAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [accountsOpenApi, billingOpenApi] }),
        composeDomains(AccountsModule, BillingModule),
      ],
    };
  }
}
