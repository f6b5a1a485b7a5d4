import { runService } from '@gen/platform';
import {
  API_KEY_AUTHENTICATOR_CONTRACT,
  CATALOG_DOCUMENT_CONTRACT,
  FILES_CONTRACT,
  HOLDS_CONTRACT,
} from '@gen/transport';
import { CompatProtocolsAppModule } from './app.module';

runService({
  name: 'compat-protocols',
  // Kafka: a text run reports on `task.execution` from this process. S3: a finished video's signed URL.
  needs: ['database', 'redis', 'kafka', 's3'],
  // API keys (the gateway), holds (billing), the `service://` files of task input (media).
  ports: {
    answers: [],
    calls: [API_KEY_AUTHENTICATOR_CONTRACT, HOLDS_CONTRACT, FILES_CONTRACT, CATALOG_DOCUMENT_CONTRACT],
  },
  rootModule: (config, logger) => CompatProtocolsAppModule.forRoot(config, logger),
});
