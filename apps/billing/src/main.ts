import { runService } from '@gen/platform';
import { BillingAppModule } from './app.module';

runService({ name: 'billing', rootModule: (config, logger) => BillingAppModule.forRoot(config, logger) });
