import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule } from '@gen/platform';
import { WebhooksModule } from '@gen/webhooks';

/**
 * The webhooks service on its own (distributed mode): queues task callbacks from task.lifecycle and sends
 * them on their schedule; replicas share the work. It serves no public route: the gateway serves the
 * endpoints' management and the deliveries' administration (docs/architecture.md). Signing secrets and
 * languages are read at each attempt from the gateway's account directory, over the service transport
 * (main.ts); while the gateway cannot be reached, a pass records nothing and its deliveries are tried again.
 */
@Module({})
export class WebhooksAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: WebhooksAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [], appName: 'webhooks' }),
        WebhooksModule.forRoot({ workers: true, http: false }),
      ],
    };
  }
}
