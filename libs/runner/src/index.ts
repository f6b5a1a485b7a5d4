export { RunnerModule } from './runner.module';
export { RUNNER_LOGGER, type RunnerLogger } from './task-runner.worker';
export { outputKey } from './execute-task.use-case';
export { PerModelLimiter } from './per-model-limiter';
