import { runService } from '@gen/platform';
import { ACCOUNT_DIRECTORY_CONTRACT } from '@gen/transport';
import { WebhooksAppModule } from './app.module';

runService({
  name: 'webhooks',
  needs: ['database', 'kafka', 's3'],
  ports: { answers: [], calls: [ACCOUNT_DIRECTORY_CONTRACT] },
  rootModule: (config, logger) => WebhooksAppModule.forRoot(config, logger),
});
