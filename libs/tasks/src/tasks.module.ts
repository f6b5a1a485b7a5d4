import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gen/core';
import { parseAllowPrivateCidrs } from '@gen/ssrf';
import { TASKS_OPTIONS, type TasksOptions } from './domain/task-options';
import { TaskEventConsumers } from './events/task-event.consumers';
import { TaskOutboxRelay } from './events/task-outbox.relay';
import { TaskBackgroundWork } from './workers/task-background-work';
import { TaskSweeper } from './workers/task-sweeper';
import { ConsoleTasksController } from './http/console-tasks.controller';
import { TaskOutputsController } from './http/task-outputs.controller';
import { TasksController } from './http/tasks.controller';
import { TaskRepository } from './persistence/task.repository';
import { outboxSignalProvider } from '@gen/messaging';
import { TASKS_SCHEMA } from './persistence/tasks-schema';
import { TasksMigrations } from './persistence/tasks-schema';
import { ApplyExecutionUseCase } from './use-cases/apply-execution.use-case';
import { CreateDownloadUrlUseCase } from './use-cases/create-download-url.use-case';
import { CreateTaskUseCase } from './use-cases/create-task.use-case';
import { ExpireTasksUseCase } from './use-cases/expire-tasks.use-case';
import { InterruptStreamsUseCase } from './use-cases/interrupt-streams.use-case';
import { GetTaskUseCase } from './use-cases/get-task.use-case';
import { PrepareTaskRequest } from './domain/prepare-task-request';
import { QuoteTaskUseCase } from './use-cases/quote-task.use-case';
import { RecordSettlementUseCase } from './use-cases/record-settlement.use-case';
import { GetUsageUseCase } from './use-cases/get-usage.use-case';
import { ListTasksUseCase } from './use-cases/list-tasks.use-case';
import { PurgeTaskUseCase } from './use-cases/purge-task.use-case';
import { RetryTaskUseCase } from './use-cases/retry-task.use-case';
import { OpenTextTaskUseCase } from './use-cases/open-text-task.use-case';
import { COMPAT_TASKS, TEXT_TASK_INTAKE, TEXT_TASKS } from '@gen/contracts';
import { TextTaskIntakeUseCase } from './use-cases/text-task-intake.use-case';
import { CompatTasksUseCase } from './use-cases/compat-tasks.use-case';
import { StreamsAcceptedHere } from './use-cases/streams-accepted-here';

export interface TasksModuleOptions {
  /** The quote signing key (QUOTE_SIGNING_KEY, or a key kept in DATA_DIR). */
  readonly quoteKey: (config: AppConfig) => Buffer;
  /** Run the relay, the consumers and the sweepers in this process (the tasks app; embedded mode). */
  readonly workers: boolean;
  /**
   * Serve the task routes (`/api/v1/jobs/...`, `/api/v1/usage`, the download tickets of task outputs
   * `/api/v1/common/download-url`) and the console's task history and usage (`/console/v1/tasks`,
   * `/console/v1/usage`): the tasks app; embedded mode.
   */
  readonly http: boolean;
  /**
   * Offer the compatibility endpoints (CompatModule) their ports, TEXT_TASKS and COMPAT_TASKS: the apps that
   * serve them (compat-protocols; embedded mode), with or without the task routes. The tasks app's task
   * routes provide them too, unexported: it answers compat-protocols' calls for them over the service transport.
   */
  readonly compat: boolean;
}

/**
 * The tasks service: quote, createTask, recordInfo, the transitions and deadlines. Needs CATALOG_PORT,
 * HOLDS_PORT, OBJECT_STORAGE, EVENT_BUS, DATABASE and CLOCK from the composing app, and FILES_PORT where it
 * accepts tasks (`http` or `compat`).
 */
@Module({})
export class TasksModule {
  static forRoot(options: TasksModuleOptions): DynamicModule {
    const providers: Provider[] = [
      {
        provide: TASKS_OPTIONS,
        inject: [APP_CONFIG],
        useFactory: (config: AppConfig): TasksOptions => ({
          deadlineSeconds: config.TASK_DEADLINE_SECONDS,
          quoteKey: options.quoteKey(config),
          allowPrivateCidrs: parseAllowPrivateCidrs(config.WEBHOOK_ALLOW_PRIVATE_CIDRS),
          streamLeaseMs: config.TEXT_STREAM_LEASE_MS,
        }),
      },
      TasksMigrations,
      outboxSignalProvider(TASKS_SCHEMA.schema),
      TaskRepository,
      StreamsAcceptedHere,
      // Accepting tasks (quote, createTask, retry) checks media files through FILES_PORT: only where tasks
      // are accepted, the apps that compose MediaModule.
      ...(options.http || options.compat
        ? [PrepareTaskRequest, QuoteTaskUseCase, CreateTaskUseCase, RetryTaskUseCase]
        : []),
      GetTaskUseCase,
      ApplyExecutionUseCase,
      RecordSettlementUseCase,
      ExpireTasksUseCase,
      PurgeTaskUseCase,
      ListTasksUseCase,
      GetUsageUseCase,
      CreateDownloadUrlUseCase,
      // The native stream route (`/api/v1/jobs/stream`) opens text tasks too. TEXT_TASK_INTAKE accepts them,
      // here or, over the service transport, for the compat-protocols app (TextStreamsModule).
      ...(options.http || options.compat
        ? [
            TextTaskIntakeUseCase,
            { provide: TEXT_TASK_INTAKE, useExisting: TextTaskIntakeUseCase },
            OpenTextTaskUseCase,
            { provide: TEXT_TASKS, useExisting: OpenTextTaskUseCase },
          ]
        : []),
      ...(options.http || options.compat
        ? [CompatTasksUseCase, { provide: COMPAT_TASKS, useExisting: CompatTasksUseCase }]
        : []),
      ...(options.workers
        ? [InterruptStreamsUseCase, TaskOutboxRelay, TaskEventConsumers, TaskSweeper, TaskBackgroundWork]
        : []),
    ];
    return {
      module: TasksModule,
      // TEXT_TASKS and COMPAT_TASKS reach the compatibility endpoints without one library importing the other.
      global: true,
      controllers: options.http ? [TasksController, TaskOutputsController, ConsoleTasksController] : [],
      providers,
      exports: [ExpireTasksUseCase, PurgeTaskUseCase, ...(options.compat ? [TEXT_TASKS, COMPAT_TASKS] : [])],
    };
  }
}
