import { runService } from '@gen/platform';
import { WebhooksAppModule } from './app.module';

runService({
  name: 'webhooks',
  needs: ['database', 'kafka', 's3'],
  rootModule: (config, logger) => WebhooksAppModule.forRoot(config, logger),
});
