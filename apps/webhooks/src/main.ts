import { runService } from '@gen/platform';
import { WebhooksAppModule } from './app.module';

runService({ name: 'webhooks', rootModule: (config, logger) => WebhooksAppModule.forRoot(config, logger) });
