export { TasksModule, type TasksModuleOptions } from './tasks.module';
export { tasksOpenApi } from './http/tasks.openapi';
export { TASK_STATES, nextState, type TaskState, type TaskTrigger } from './domain/task-state';
export { ExpireTasksUseCase } from './use-cases/expire-tasks.use-case';
export { PurgeTaskUseCase } from './use-cases/purge-task.use-case';
