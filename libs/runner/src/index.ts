export { RunnerModule, ChatExecutionModule } from './runner.module';
export { RunChatUseCase, answerOf } from './use-cases/run-chat.use-case';
export { outputKey, ExecuteTaskUseCase, ExecutionAborted } from './use-cases/execute-task.use-case';
export { JobRepository, type Job } from './persistence/job.repository';
export { RUNNER_SCHEMA, RunnerMigrations } from './persistence/runner-schema';
export { JobDispatcher } from './workers/job-dispatcher';
export { TaskCreatedConsumer, RUNNER_CONSUMER_GROUP } from './events/task-created.consumer';
