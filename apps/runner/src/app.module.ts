import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule } from '@gen/platform';
import { RunnerModule } from '@gen/runner';

/** The runner on its own (distributed mode): executes created tasks and stores their outputs in S3. */
@Module({})
export class RunnerAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: RunnerAppModule,
      imports: [PlatformModule.forRoot({ config, logger, openApi: [], appName: 'runner' }), RunnerModule],
    };
  }
}
