import { runService } from '@gen/platform';
import { RunnerAppModule } from './app.module';

runService({ name: 'runner', rootModule: (config, logger) => RunnerAppModule.forRoot(config, logger) });
