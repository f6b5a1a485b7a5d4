import { runService } from '@gen/platform';
import { MediaAppModule } from './app.module';

runService({
  name: 'media',
  needs: ['database', 'redis', 's3'],
  rootModule: (config, logger) => MediaAppModule.forRoot(config, logger),
});
