import { Module } from '@nestjs/common';
import { TaskCreatedConsumer } from './events/task-created.consumer';
import { JobRepository } from './persistence/job.repository';
import { RunnerMigrations } from './persistence/runner-schema';
import { JobDispatcher } from './workers/job-dispatcher';

/**
 * The runner: queues created tasks durably (`runner.jobs`), runs them under leases through the provider
 * adapters and stores their outputs. Needs EVENT_BUS, DATABASE, OBJECT_STORAGE, CLOCK and APP_CONFIG from the
 * composing app.
 */
@Module({ providers: [RunnerMigrations, JobRepository, JobDispatcher, TaskCreatedConsumer] })
export class RunnerModule {}
