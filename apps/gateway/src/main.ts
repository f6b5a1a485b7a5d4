import { BootstrapDemoUseCase } from '@gen/accounts';
import { runService } from '@gen/platform';
import {
  ACCOUNT_DIRECTORY_CONTRACT,
  ADMIN_TOKEN_VERIFIER_CONTRACT,
  API_KEY_AUTHENTICATOR_CONTRACT,
  CONSOLE_SESSION_VERIFIER_CONTRACT,
  FUNDS_CONTRACT,
  KEY_SPEND_CONTRACT,
  httpForwardContract,
} from '@gen/transport';
import { GatewayAppModule } from './app.module';

runService({
  name: 'gateway',
  needs: ['database', 'redis'],
  // The gateway owns the accounts: it answers the credential checks and the account directory for the other
  // apps. It calls billing for an account's opening credit and its keys' spend today (the console), and forwards the admin routes of billing and media
  // under `/admin/v1/accounts/{id}/` to them (FORWARDED_ROUTES).
  ports: {
    answers: [
      API_KEY_AUTHENTICATOR_CONTRACT,
      CONSOLE_SESSION_VERIFIER_CONTRACT,
      ADMIN_TOKEN_VERIFIER_CONTRACT,
      ACCOUNT_DIRECTORY_CONTRACT,
    ],
    calls: [FUNDS_CONTRACT, KEY_SPEND_CONTRACT, httpForwardContract('billing'), httpForwardContract('media')],
  },
  rootModule: (config, logger) => GatewayAppModule.forRoot(config, logger),
  afterListen: async (app, baseUrl) => {
    const boot = await app.get(BootstrapDemoUseCase).execute(baseUrl);
    return boot.created && boot.file
      ? [`API key (shown once): ${boot.file.apiKey}`]
      : [`Credentials: ${boot.path}`];
  },
});
