export { TasksModule, type TasksModuleOptions } from './tasks.module';
export { tasksOpenApi } from './http/tasks.openapi';
export { PurgeTaskUseCase } from './use-cases/purge-task.use-case';
export { TASKS_SCHEMA } from './persistence/tasks-schema';
export { TextStreamsModule } from './text-streams.module';
