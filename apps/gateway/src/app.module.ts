import { Module, type DynamicModule } from '@nestjs/common';
import { AccountsModule, accountsOpenApi } from '@gen/accounts';
import { billingOpenApi } from '@gen/billing';
import { catalogOpenApi } from '@gen/catalog';
import { ConsoleWebModule } from '@gen/console-web';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, composeDomains } from '@gen/platform';
import { tasksOpenApi } from '@gen/tasks';
import { compatOpenApi } from '@gen/protocols';
import { assetsOpenApi, mediaOpenApi } from '@gen/media';
import { endpointsOpenApi, webhooksOpenApi } from '@gen/webhooks';

/**
 * The gateway of distributed mode: the accounts domain (its admin routes, console sessions, and the credential
 * checks every other app calls over the service transport), the routes the ingress sends nowhere else (a 404
 * in the caller's protocol shape) and the whole OpenAPI document. Every other family is served by the app that
 * owns it (docs/architecture.md, "Which app serves which routes"); the few admin routes an ingress cannot send
 * to their owner by path are forwarded to it (`FORWARDED_ROUTES`, main.ts). It composes no other domain: the
 * documents of the others are only read for `/openapi.json`.
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
          openApi: [
            accountsOpenApi,
            billingOpenApi,
            catalogOpenApi,
            tasksOpenApi,
            webhooksOpenApi,
            endpointsOpenApi,
            compatOpenApi,
            mediaOpenApi,
            assetsOpenApi,
          ],
          appName: 'gateway',
        }),
        composeDomains(AccountsModule.forRoot({ http: true })),
        // The web console's pages at /console, beside the console sign-in of the accounts module.
        ConsoleWebModule.forRoot(),
      ],
    };
  }
}
