import { Module, type DynamicModule } from '@nestjs/common';
import { AccountsModule } from '@gen/accounts';
import { BillingModule } from '@gen/billing';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, composeDomains } from '@gen/platform';
import { WebhooksModule } from '@gen/webhooks';

/**
 * The webhooks service on its own (distributed mode): queues task callbacks from task.lifecycle and sends
 * them on their schedule; replicas share the work. It serves no public route: the gateway serves the
 * endpoints' management and the deliveries' administration (docs/architecture.md). The accounts directory
 * it reads signing secrets and languages from (and the billing port accounts needs) is hosted in-process,
 * without billing's background work, until domain calls go through the service transport.
 */
@Module({})
export class WebhooksAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: WebhooksAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [], appName: 'webhooks' }),
        composeDomains(
          AccountsModule.forRoot({ http: false }),
          BillingModule.forRoot({ http: false, workers: false }),
        ),
        WebhooksModule.forRoot({ workers: true, http: false }),
      ],
    };
  }
}
