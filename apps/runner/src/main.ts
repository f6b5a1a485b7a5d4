import { runService } from '@gen/platform';
import { MEDIA_INPUTS_CONTRACT } from '@gen/transport';
import { RunnerAppModule } from './app.module';

runService({
  name: 'runner',
  needs: ['database', 'kafka', 's3'],
  ports: { answers: [], calls: [MEDIA_INPUTS_CONTRACT] },
  rootModule: (config, logger) => RunnerAppModule.forRoot(config, logger),
});
