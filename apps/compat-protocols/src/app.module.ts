import { Module, type DynamicModule } from '@nestjs/common';
import { CatalogModule } from '@gen/catalog';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, ProvidersModule } from '@gen/platform';
import { CompatModule, compatOpenApi } from '@gen/protocols';
import { ChatExecutionModule } from '@gen/runner';
import { TextStreamsModule } from '@gen/tasks';

/**
 * The compat-protocols service on its own (distributed mode): the compatibility family (`/v1/chat/completions`,
 * `/v1/responses`, `/v1/messages`, `/v1beta/models/{model}:(stream)generateContent` and the same under
 * `/v1/models/`, `/v1/videos/*`), so that long-lived text streams scale apart from the other apps
 * (docs/architecture.md, "Which app serves which routes"). A text stream runs here, where the client is
 * (CHAT_EXECUTION through the provider port), and reports on `task.execution`; the tasks app accepts it
 * (TEXT_TASK_INTAKE: validation, quote, Idempotency-Key, the hold in billing, the task row) and the `/v1/videos`
 * tasks (COMPAT_TASKS), over the service transport, as the gateway checks the API keys (main.ts). It owns no
 * table: the catalog comes from the catalog app at start.
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
        TextStreamsModule.forRoot(),
        CompatModule,
      ],
    };
  }
}
