import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule } from '@gen/platform';
import { WebhooksModule, endpointsOpenApi, webhooksOpenApi } from '@gen/webhooks';

/**
 * The webhooks service on its own (distributed mode): the account endpoints' management
 * (`/console/v1/webhook-endpoints/*`, `/console/v1/webhook-events`) and the deliveries' administration
 * (`/admin/v1/webhook-deliveries/*`); it queues task callbacks from task.lifecycle and sends them and the
 * endpoints' messages on their schedule; replicas share the work. Console sessions, the admin token, signing
 * secrets and languages are the gateway's, read over the service transport (main.ts); while the gateway cannot
 * be reached, a pass records nothing and its deliveries are tried again.
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
        WebhooksModule.forRoot({ workers: true, http: true }),
      ],
    };
  }
}
