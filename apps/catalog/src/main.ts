import { runService } from '@gen/platform';
import { CatalogAppModule } from './app.module';

runService({
  name: 'catalog',
  needs: ['database'],
  rootModule: (config, logger) => CatalogAppModule.forRoot(config, logger),
});
