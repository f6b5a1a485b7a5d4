import { Module } from '@nestjs/common';
import { TaskCreatedConsumer } from './events/task-created.consumer';
import { JobRepository } from './persistence/job.repository';
import { RunnerMigrations } from './persistence/runner-schema';
import { JobDispatcher } from './workers/job-dispatcher';
import { ExecuteTaskUseCase } from './use-cases/execute-task.use-case';

/**
 * The runner: queues created tasks durably (`runner.jobs`), runs them under leases through the provider
 * port (PROVIDER_PORT) and stores their outputs. Needs EVENT_BUS, DATABASE, OBJECT_STORAGE, CLOCK, APP_CONFIG
 * and PROVIDER_PORT (ProvidersModule) from the composing app.
 */
@Module({
  providers: [RunnerMigrations, JobRepository, ExecuteTaskUseCase, JobDispatcher, TaskCreatedConsumer],
})
export class RunnerModule {}
