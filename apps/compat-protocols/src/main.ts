import { runService } from '@gen/platform';
import {
  API_KEY_AUTHENTICATOR_CONTRACT,
  CATALOG_DOCUMENT_CONTRACT,
  COMPAT_TASKS_CONTRACT,
  MEDIA_INPUTS_CONTRACT,
  TEXT_TASK_INTAKE_CONTRACT,
} from '@gen/transport';
import { CompatProtocolsAppModule } from './app.module';

runService({
  name: 'compat-protocols',
  // Kafka: a text run reports on `task.execution` from this process. Redis: the shared request limits and the
  // circuits of the upstreams. PostgreSQL: the platform's readiness check. S3: a conversation's image read by the
  // media app (MEDIA_INPUTS) crosses through object storage when it is large.
  needs: ['database', 'redis', 'kafka', 's3'],
  // API keys (the gateway), the acceptance of its tasks (tasks, which holds in billing and checks the
  // `service://` files of input in media), the images of a conversation an upstream needs as bytes (media), the
  // catalog document.
  ports: {
    answers: [],
    calls: [
      API_KEY_AUTHENTICATOR_CONTRACT,
      TEXT_TASK_INTAKE_CONTRACT,
      COMPAT_TASKS_CONTRACT,
      MEDIA_INPUTS_CONTRACT,
      CATALOG_DOCUMENT_CONTRACT,
    ],
  },
  rootModule: (config, logger) => CompatProtocolsAppModule.forRoot(config, logger),
});
