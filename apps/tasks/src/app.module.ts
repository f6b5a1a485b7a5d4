import { Module, type DynamicModule } from '@nestjs/common';
import { AccountsModule } from '@gen/accounts';
import { BillingModule } from '@gen/billing';
import { CatalogModule } from '@gen/catalog';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule, composeDomains, quoteSigningKey } from '@gen/platform';
import { TasksModule } from '@gen/tasks';

/**
 * The tasks service on its own (distributed mode): the relay of task.lifecycle, the consumers of the runner's
 * reports and billing's settlements, and the deadline and retention sweepers. It serves no public route: the
 * gateway takes the task requests (docs/architecture.md). The catalog (prices of usage) and the billing port
 * its use cases take are hosted in-process, without billing's background work.
 */
@Module({})
export class TasksAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: TasksAppModule,
      imports: [
        PlatformModule.forRoot({ config, logger, openApi: [], appName: 'tasks' }),
        composeDomains(
          AccountsModule.forRoot({ http: false }),
          BillingModule.forRoot({ http: false, workers: false }),
        ),
        CatalogModule.forRoot({ file: config.CATALOG_FILE, http: false }),
        TasksModule.forRoot({ quoteKey: quoteSigningKey, workers: true, http: false, compat: false }),
      ],
    };
  }
}
