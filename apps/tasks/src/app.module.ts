import { Module, type DynamicModule } from '@nestjs/common';
import { CatalogModule } from '@gen/catalog';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, quoteSigningKey } from '@gen/platform';
import { TasksModule } from '@gen/tasks';

/**
 * The tasks service on its own (distributed mode): the relay of task.lifecycle, the consumers of the runner's
 * reports and billing's settlements, and the deadline and retention sweepers. It serves no public route: the
 * gateway takes the task requests (docs/architecture.md). Its background work calls no other app: holds are
 * settled by billing from task.lifecycle. It reads the catalog file itself (prices of usage).
 */
@Module({})
export class TasksAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: TasksAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [], appName: 'tasks' }),
        CatalogModule.forRoot({ file: config.CATALOG_FILE, http: false }),
        TasksModule.forRoot({ quoteKey: quoteSigningKey, workers: true, http: false, compat: false }),
      ],
    };
  }
}
