import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule } from '@gen/platform';

/**
 * The media service on its own (distributed mode). Its domain module joins here when its issue lands;
 * until then it serves health, readiness and its slice of the OpenAPI document.
 */
@Module({})
export class MediaAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return { module: MediaAppModule, imports: [PlatformModule.forRoot({ config, logger, openApi: [] })] };
  }
}
