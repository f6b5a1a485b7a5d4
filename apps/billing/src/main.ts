import { runService } from '@gen/platform';
import { ACCOUNT_DIRECTORY_CONTRACT, FUNDS_CONTRACT, HOLDS_CONTRACT } from '@gen/transport';
import { BillingAppModule } from './app.module';

runService({
  name: 'billing',
  needs: ['database', 'kafka'],
  // Billing answers holds and funds; a credit is checked against the gateway's account directory.
  ports: { answers: [HOLDS_CONTRACT, FUNDS_CONTRACT], calls: [ACCOUNT_DIRECTORY_CONTRACT] },
  rootModule: (config, logger) => BillingAppModule.forRoot(config, logger),
});
