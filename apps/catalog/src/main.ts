import { runService } from '@gen/platform';
import {
  API_KEY_AUTHENTICATOR_CONTRACT,
  CATALOG_DOCUMENT_CONTRACT,
  CATALOG_MODELS_CONTRACT,
} from '@gen/transport';
import { CatalogAppModule } from './app.module';

runService({
  name: 'catalog',
  // Redis: the request limits its routes share with the other edges, and the runners' circuits.
  needs: ['database', 'redis'],
  // The catalog app owns the catalog file: the other apps build their catalog from its document, and billing
  // asks it whether a grant's model exists.
  ports: {
    answers: [CATALOG_DOCUMENT_CONTRACT, CATALOG_MODELS_CONTRACT],
    calls: [API_KEY_AUTHENTICATOR_CONTRACT],
  },
  rootModule: (config, logger) => CatalogAppModule.forRoot(config, logger),
});
