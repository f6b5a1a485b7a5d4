import { Module, type DynamicModule } from '@nestjs/common';
import { BillingModule, billingOpenApi } from '@gen/billing';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule } from '@gen/platform';

/**
 * The billing service on its own (distributed mode): the balance (`/api/v1/chat/credit`) and the admin credit
 * route (`/admin/v1/accounts/{id}/credits`, forwarded by the gateway), the stale-reserve sweeper, the
 * task-lifecycle consumer and the relay of its outbox; and the billing ports other apps call over the service
 * transport (holds for createTask, funds for the gateway's accounts). API keys, the admin token and the account
 * directory it checks credits against are the gateway's (main.ts).
 */
@Module({})
export class BillingAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: BillingAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [billingOpenApi], appName: 'billing' }),
        BillingModule.forRoot({ http: true }),
      ],
    };
  }
}
