import { runService } from '@gen/platform';
import { CATALOG_DOCUMENT_CONTRACT, MEDIA_INPUTS_CONTRACT } from '@gen/transport';
import { RunnerAppModule } from './app.module';

runService({
  name: 'runner',
  needs: ['database', 'kafka', 's3'],
  ports: { answers: [], calls: [MEDIA_INPUTS_CONTRACT, CATALOG_DOCUMENT_CONTRACT] },
  rootModule: (config, logger) => RunnerAppModule.forRoot(config, logger),
});
