import { BootstrapDemoUseCase } from '@gen/accounts';
import { runService } from '@gen/platform';
import {
  ACCOUNT_DIRECTORY_CONTRACT,
  ADMIN_TOKEN_VERIFIER_CONTRACT,
  API_KEY_AUTHENTICATOR_CONTRACT,
  CONSOLE_SESSION_VERIFIER_CONTRACT,
  FILES_CONTRACT,
  FUNDS_CONTRACT,
  HOLDS_CONTRACT,
} from '@gen/transport';
import { GatewayAppModule } from './app.module';

runService({
  name: 'gateway',
  // Kafka: a text stream runs here and reports on `task.execution` (RunChatUseCase publishes it directly).
  needs: ['database', 'redis', 'kafka', 's3'],
  // The gateway owns the accounts: it answers the credential checks and the account directory for the other
  // apps, and calls billing (opening credit, holds) and media (files of task input) in their apps.
  ports: {
    answers: [
      API_KEY_AUTHENTICATOR_CONTRACT,
      CONSOLE_SESSION_VERIFIER_CONTRACT,
      ADMIN_TOKEN_VERIFIER_CONTRACT,
      ACCOUNT_DIRECTORY_CONTRACT,
    ],
    calls: [FUNDS_CONTRACT, HOLDS_CONTRACT, FILES_CONTRACT],
  },
  rootModule: (config, logger) => GatewayAppModule.forRoot(config, logger),
  afterListen: async (app, baseUrl) => {
    const boot = await app.get(BootstrapDemoUseCase).execute(baseUrl);
    return boot.created && boot.file
      ? [`API key (shown once): ${boot.file.apiKey}`]
      : [`Credentials: ${boot.path}`];
  },
});
