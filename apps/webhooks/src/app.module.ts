import { Module, type DynamicModule } from '@nestjs/common';
import { AccountsModule } from '@gen/accounts';
import { BillingModule } from '@gen/billing';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, composeDomains } from '@gen/platform';
import { WebhooksModule, endpointsOpenApi, webhooksOpenApi } from '@gen/webhooks';

/**
 * The webhooks service on its own (distributed mode): queues task callbacks from task.lifecycle and sends
 * them on their schedule; replicas share the work. The accounts directory it reads signing secrets and
 * languages from (and the billing port accounts needs) is hosted in-process, without billing's background
 * work, until domain calls go through the service transport.
 */
@Module({})
export class WebhooksAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: WebhooksAppModule,
      imports: [
        PlatformModule.forRoot({
          config,
          logger,
          openApi: [webhooksOpenApi, endpointsOpenApi],
          appName: 'webhooks',
        }),
        composeDomains(AccountsModule, BillingModule.forRoot({ workers: false })),
        WebhooksModule.forRoot({ workers: true }),
      ],
    };
  }
}
