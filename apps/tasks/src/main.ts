import { runService } from '@gen/platform';
import { TasksAppModule } from './app.module';

runService({ name: 'tasks', rootModule: (config, logger) => TasksAppModule.forRoot(config, logger) });
