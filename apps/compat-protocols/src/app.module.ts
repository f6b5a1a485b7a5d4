import { Module, type DynamicModule } from '@nestjs/common';
import { AccountsModule } from '@gen/accounts';
import { BillingModule } from '@gen/billing';
import { CatalogModule } from '@gen/catalog';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, ProvidersModule, composeDomains, quoteSigningKey } from '@gen/platform';
import { CompatModule, compatOpenApi } from '@gen/protocols';
import { ChatExecutionModule } from '@gen/runner';
import { MediaModule } from '@gen/media';
import { TasksModule } from '@gen/tasks';

/**
 * The compat-protocols service on its own (distributed mode): the compatibility family (`/v1/chat/completions`,
 * `/v1/responses`, `/v1/messages`, `/v1beta/models/{model}:(stream)generateContent`, `/v1/videos/*`), so that
 * long-lived text streams scale apart from the gateway (docs/architecture.md, "Which app serves which routes").
 * Text runs here, where the client is (CHAT_EXECUTION through the provider port), and reports on
 * `task.execution`. It hosts the accounts module (API keys: Bearer, `x-api-key`, `x-gen-api-key`,
 * `x-goog-api-key`), billing's holds, the media files (FILES_PORT), the catalog and the tasks use cases behind
 * TEXT_TASKS and COMPAT_TASKS, for their ports only: no route of theirs, no background work (their relays run in the worker apps).
 */
@Module({})
export class CompatProtocolsAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: CompatProtocolsAppModule,
      imports: [
        // The document lists the system routes and the compatibility family, the routes this app serves.
        PlatformModule.forRoot({ config, logger, openApi: [compatOpenApi], appName: 'compat-protocols' }),
        composeDomains(
          AccountsModule.forRoot({ http: false }),
          BillingModule.forRoot({ http: false, workers: false }),
          // FILES_PORT: a task accepted here has its `service://` media inputs checked like the gateway's.
          MediaModule.forRoot({ http: false, workers: false }),
        ),
        CatalogModule.forRoot({ file: config.CATALOG_FILE, http: false }),
        ProvidersModule,
        ChatExecutionModule,
        TasksModule.forRoot({ quoteKey: quoteSigningKey, workers: false, http: false, compat: true }),
        CompatModule,
      ],
    };
  }
}
