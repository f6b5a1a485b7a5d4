import { Module, type DynamicModule } from '@nestjs/common';
import { AccountsModule, accountsOpenApi } from '@gen/accounts';
import { BillingModule, billingOpenApi } from '@gen/billing';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, composeDomains } from '@gen/platform';

/**
 * The billing service. Until the synchronous service transport lands (distributed-infrastructure issue), the
 * accounts directory it needs runs in-process behind its port.
 */
@Module({})
export class BillingAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: BillingAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [accountsOpenApi, billingOpenApi] }),
        composeDomains(AccountsModule, BillingModule),
      ],
    };
  }
}
