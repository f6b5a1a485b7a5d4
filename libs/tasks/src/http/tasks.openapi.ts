import { openApiOf, type OpenApiFragment } from '@gen/edge';
import { ConsoleTasksController } from './console-tasks.controller';
import { TaskOutputsController } from './task-outputs.controller';
import { TasksController } from './tasks.controller';

/** The task routes' part of the document, generated from their controllers (routes, pipes, @ApiOperation). */
export const tasksOpenApi: OpenApiFragment = openApiOf([
  TasksController,
  TaskOutputsController,
  ConsoleTasksController,
]);
