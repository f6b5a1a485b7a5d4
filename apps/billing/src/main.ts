import { runService } from '@gen/platform';
import {
  ACCOUNT_DIRECTORY_CONTRACT,
  ADMIN_TOKEN_VERIFIER_CONTRACT,
  API_KEY_AUTHENTICATOR_CONTRACT,
  CATALOG_MODELS_CONTRACT,
  FUNDS_CONTRACT,
  HOLDS_CONTRACT,
  KEY_SPEND_CONTRACT,
  CONSOLE_SESSION_VERIFIER_CONTRACT,
  httpForwardContract,
} from '@gen/transport';
import { BillingAppModule } from './app.module';

runService({
  name: 'billing',
  // Redis: the per-key request limits its routes share with the other edges.
  needs: ['database', 'redis', 'kafka'],
  // Billing answers holds, funds and its forwarded admin route; its routes' credentials and the accounts a
  // credit is checked against are the gateway's, the models a grant is checked against the catalog app's.
  ports: {
    answers: [HOLDS_CONTRACT, FUNDS_CONTRACT, KEY_SPEND_CONTRACT, httpForwardContract('billing')],
    calls: [
      API_KEY_AUTHENTICATOR_CONTRACT,
      CONSOLE_SESSION_VERIFIER_CONTRACT,
      ADMIN_TOKEN_VERIFIER_CONTRACT,
      ACCOUNT_DIRECTORY_CONTRACT,
      CATALOG_MODELS_CONTRACT,
    ],
  },
  rootModule: (config, logger) => BillingAppModule.forRoot(config, logger),
});
