import { runService } from '@gen/platform';
import { TasksAppModule } from './app.module';

runService({
  name: 'tasks',
  needs: ['database', 'kafka', 's3'],
  rootModule: (config, logger) => TasksAppModule.forRoot(config, logger),
});
