import { Module, type DynamicModule } from '@nestjs/common';
import { CatalogModule } from '@gen/catalog';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, ProvidersModule, quoteSigningKey } from '@gen/platform';
import { ChatExecutionModule } from '@gen/runner';
import { TasksModule, tasksOpenApi } from '@gen/tasks';

/**
 * The tasks service on its own (distributed mode): the task routes (`/api/v1/jobs/*`, `/api/v1/usage`,
 * `/api/v1/common/download-url`), the relay of task.lifecycle, the consumers of the runner's reports and
 * billing's settlements, and the deadline and retention sweepers. API keys are the gateway's, holds billing's
 * and the `service://` files of task input media's, over the service transport (main.ts). A text task opened
 * on `/api/v1/jobs/stream` runs here, where its client is (CHAT_EXECUTION through the provider port). The
 * catalog arrives from the catalog app at start (CatalogModule, `source: 'remote'`).
 */
@Module({})
export class TasksAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: TasksAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [tasksOpenApi], appName: 'tasks' }),
        CatalogModule.forRoot({ source: 'remote', http: false }),
        ProvidersModule,
        ChatExecutionModule,
        TasksModule.forRoot({ quoteKey: quoteSigningKey, workers: true, http: true, compat: false }),
      ],
    };
  }
}
