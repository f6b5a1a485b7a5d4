export { RunnerModule, ChatExecutionModule } from './runner.module';
export { RUNNER_SCHEMA } from './persistence/runner-schema';
