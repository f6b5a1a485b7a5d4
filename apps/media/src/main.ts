import { runService } from '@gen/platform';
import {
  ACCOUNT_DIRECTORY_CONTRACT,
  ADMIN_TOKEN_VERIFIER_CONTRACT,
  API_KEY_AUTHENTICATOR_CONTRACT,
  FILES_CONTRACT,
  MEDIA_INPUTS_CONTRACT,
  httpForwardContract,
} from '@gen/transport';
import { MediaAppModule } from './app.module';

runService({
  name: 'media',
  needs: ['database', 'redis', 's3'],
  // Media answers the files, media inputs and its admin routes the gateway forwards; its routes' credentials and accounts are the gateway's.
  ports: {
    answers: [FILES_CONTRACT, MEDIA_INPUTS_CONTRACT, httpForwardContract('media')],
    calls: [API_KEY_AUTHENTICATOR_CONTRACT, ADMIN_TOKEN_VERIFIER_CONTRACT, ACCOUNT_DIRECTORY_CONTRACT],
  },
  rootModule: (config, logger) => MediaAppModule.forRoot(config, logger),
});
