import { runService } from '@gen/platform';
import { TasksAppModule } from './app.module';

runService({
  name: 'tasks',
  needs: ['database', 'kafka'],
  rootModule: (config, logger) => TasksAppModule.forRoot(config, logger),
});
