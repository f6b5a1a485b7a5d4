import { runService } from '@gen/platform';
import { RunnerAppModule } from './app.module';

runService({
  name: 'runner',
  needs: ['database', 'kafka', 's3'],
  rootModule: (config, logger) => RunnerAppModule.forRoot(config, logger),
});
