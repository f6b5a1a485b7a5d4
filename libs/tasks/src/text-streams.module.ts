import { Module, type DynamicModule } from '@nestjs/common';
import { TEXT_TASKS } from '@gen/contracts';
import { OpenTextTaskUseCase } from './use-cases/open-text-task.use-case';

/**
 * Text streams without the tasks domain's tables: TEXT_TASKS for the compatibility endpoints of an app that does
 * not own the tasks (compat-protocols). Each stream is accepted by the tasks app (TEXT_TASK_INTAKE, over the
 * service transport) and runs here, where its client is (CHAT_EXECUTION). Needs TEXT_TASK_INTAKE, CATALOG_PORT
 * and CHAT_EXECUTION from the composing app; COMPAT_TASKS (`/v1/videos`) comes from the tasks app the same way.
 */
@Module({})
export class TextStreamsModule {
  static forRoot(): DynamicModule {
    return {
      module: TextStreamsModule,
      global: true,
      providers: [OpenTextTaskUseCase, { provide: TEXT_TASKS, useExisting: OpenTextTaskUseCase }],
      exports: [TEXT_TASKS],
    };
  }
}
