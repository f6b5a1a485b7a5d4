import { Global, Module } from '@nestjs/common';
import { TaskCreatedConsumer } from './events/task-created.consumer';
import { JobRepository } from './persistence/job.repository';
import { RunnerMigrations } from './persistence/runner-schema';
import { JobDispatcher } from './workers/job-dispatcher';
import { ExecuteTaskUseCase } from './use-cases/execute-task.use-case';
import { RunChatUseCase } from './use-cases/run-chat.use-case';
import { CHAT_EXECUTION } from '@gen/contracts';

/**
 * Text tasks run where they are asked for (CHAT_EXECUTION): the runner, and the apps that serve streams (the
 * tasks app, compat-protocols; embedded mode). Needs EVENT_BUS, CLOCK and PROVIDER_PORT. Global, so the tasks domain finds it.
 */
@Global()
@Module({
  providers: [RunChatUseCase, { provide: CHAT_EXECUTION, useExisting: RunChatUseCase }],
  exports: [RunChatUseCase, CHAT_EXECUTION],
})
export class ChatExecutionModule {}

/**
 * The runner: queues created tasks durably (`runner.jobs`), runs them under leases through the provider
 * port (PROVIDER_PORT) and stores their outputs. Needs EVENT_BUS, DATABASE, OBJECT_STORAGE, CLOCK, APP_CONFIG
 * and PROVIDER_PORT (ProvidersModule) from the composing app.
 */
@Module({
  imports: [ChatExecutionModule],
  providers: [RunnerMigrations, JobRepository, ExecuteTaskUseCase, JobDispatcher, TaskCreatedConsumer],
})
export class RunnerModule {}
