import { runService } from '@gen/platform';
import { BillingAppModule } from './app.module';

runService({
  name: 'billing',
  needs: ['database', 'kafka'],
  rootModule: (config, logger) => BillingAppModule.forRoot(config, logger),
});
