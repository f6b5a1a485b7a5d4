export { RunnerModule } from './runner.module';
export { outputKey, ExecuteTaskUseCase, ExecutionAborted } from './use-cases/execute-task.use-case';
export { JobRepository, type Job } from './persistence/job.repository';
export { RUNNER_SCHEMA, RunnerMigrations } from './persistence/runner-schema';
export { JobDispatcher } from './workers/job-dispatcher';
export { TaskCreatedConsumer, RUNNER_CONSUMER_GROUP } from './events/task-created.consumer';
