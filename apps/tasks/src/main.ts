import { runService } from '@gen/platform';
import {
  API_KEY_AUTHENTICATOR_CONTRACT,
  CATALOG_DOCUMENT_CONTRACT,
  COMPAT_TASKS_CONTRACT,
  TEXT_TASK_INTAKE_CONTRACT,
  CONSOLE_SESSION_VERIFIER_CONTRACT,
  FILES_CONTRACT,
  HOLDS_CONTRACT,
  MEDIA_INPUTS_CONTRACT,
} from '@gen/transport';
import { TasksAppModule } from './app.module';

runService({
  name: 'tasks',
  // Redis: the per-key request limits its routes share with the other edges, and the circuits of the catalog.
  needs: ['database', 'redis', 'kafka', 's3'],
  // API keys and console sessions (the gateway), holds (billing), the `service://` files of task input (media), the catalog.
  ports: {
    // The acceptance of the compatibility endpoints' tasks, for compat-protocols.
    answers: [TEXT_TASK_INTAKE_CONTRACT, COMPAT_TASKS_CONTRACT],
    calls: [
      API_KEY_AUTHENTICATOR_CONTRACT,
      CONSOLE_SESSION_VERIFIER_CONTRACT,
      HOLDS_CONTRACT,
      FILES_CONTRACT,
      // The images of a conversation streamed from here that an upstream needs as bytes.
      MEDIA_INPUTS_CONTRACT,
      CATALOG_DOCUMENT_CONTRACT,
    ],
  },
  rootModule: (config, logger) => TasksAppModule.forRoot(config, logger),
});
