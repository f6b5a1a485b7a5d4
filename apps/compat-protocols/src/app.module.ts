import { Module, type DynamicModule } from '@nestjs/common';
import { CatalogModule } from '@gen/catalog';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, ProvidersModule, quoteSigningKey } from '@gen/platform';
import { CompatModule, compatOpenApi } from '@gen/protocols';
import { ChatExecutionModule } from '@gen/runner';
import { TasksModule } from '@gen/tasks';

/**
 * The compat-protocols service on its own (distributed mode): the compatibility family (`/v1/chat/completions`,
 * `/v1/responses`, `/v1/messages`, `/v1beta/models/{model}:(stream)generateContent`, `/v1/videos/*`), so that
 * long-lived text streams scale apart from the gateway (docs/architecture.md, "Which app serves which routes").
 * Text runs here, where the client is (CHAT_EXECUTION through the provider port), and reports on
 * `task.execution`. API keys are checked by the gateway, holds reserved by the billing app and `service://`
 * files of task input looked up in the media app, over the service transport (main.ts). It still hosts the
 * tasks use cases behind TEXT_TASKS and COMPAT_TASKS (a text task's events are read in this process as the
 * model streams them) and reads the catalog file itself: no route of theirs, no background work.
 */
@Module({})
export class CompatProtocolsAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: CompatProtocolsAppModule,
      imports: [
        // The document lists the system routes and the compatibility family, the routes this app serves.
        PlatformModule.forRoot({ config, logger, openApi: [compatOpenApi], appName: 'compat-protocols' }),
        CatalogModule.forRoot({ source: 'remote', http: false }),
        ProvidersModule,
        ChatExecutionModule,
        TasksModule.forRoot({ quoteKey: quoteSigningKey, workers: false, http: false, compat: true }),
        CompatModule,
      ],
    };
  }
}
