import { runService } from '@gen/platform';
import {
  ACCOUNT_DIRECTORY_CONTRACT,
  ADMIN_TOKEN_VERIFIER_CONTRACT,
  CONSOLE_SESSION_VERIFIER_CONTRACT,
} from '@gen/transport';
import { WebhooksAppModule } from './app.module';

runService({
  name: 'webhooks',
  // Redis: the request limits its routes share with the other edges.
  needs: ['database', 'redis', 'kafka', 's3'],
  ports: {
    answers: [],
    calls: [ACCOUNT_DIRECTORY_CONTRACT, CONSOLE_SESSION_VERIFIER_CONTRACT, ADMIN_TOKEN_VERIFIER_CONTRACT],
  },
  rootModule: (config, logger) => WebhooksAppModule.forRoot(config, logger),
});
