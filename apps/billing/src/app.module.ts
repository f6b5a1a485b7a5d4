import { Module, type DynamicModule } from '@nestjs/common';
import { BillingModule } from '@gen/billing';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule } from '@gen/platform';

/**
 * The billing service on its own (distributed mode): the stale-reserve sweeper, the task-lifecycle consumer
 * and the relay of its outbox; and the billing ports other apps call over the service transport (holds for
 * the edges' createTask, funds for the gateway's accounts). It serves no public route: the gateway serves the
 * credit routes (docs/architecture.md). The account directory it checks credits against is the gateway's
 * (main.ts).
 */
@Module({})
export class BillingAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: BillingAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [], appName: 'billing' }),
        BillingModule.forRoot({ http: false }),
      ],
    };
  }
}
