export { RunnerModule } from './runner.module';
export { outputKey } from './use-cases/execute-task.use-case';
export { JobRepository, RUNNER_SCHEMA, type Job } from './persistence/job.repository';
export { JobDispatcher } from './workers/job-dispatcher';
export { TaskCreatedConsumer, RUNNER_CONSUMER_GROUP } from './events/task-created.consumer';
