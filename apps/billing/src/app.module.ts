import { Module, type DynamicModule } from '@nestjs/common';
import { AccountsModule } from '@gen/accounts';
import { BillingModule } from '@gen/billing';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, composeDomains } from '@gen/platform';

/**
 * The billing service on its own (distributed mode): the stale-reserve sweeper, the task-lifecycle consumer
 * and the relay of its outbox. It serves no public route: the gateway serves the credit routes
 * (docs/architecture.md). Until the synchronous service transport lands (distributed-infrastructure issue),
 * the accounts directory it needs runs in-process behind its port.
 */
@Module({})
export class BillingAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: BillingAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [], appName: 'billing' }),
        composeDomains(AccountsModule.forRoot({ http: false }), BillingModule.forRoot({ http: false })),
      ],
    };
  }
}
