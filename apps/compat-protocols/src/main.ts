import { runService } from '@gen/platform';
import { CompatProtocolsAppModule } from './app.module';

runService({
  name: 'compat-protocols',
  needs: ['database', 'redis'],
  rootModule: (config, logger) => CompatProtocolsAppModule.forRoot(config, logger),
});
