import { runService } from '@gen/platform';
import { MediaAppModule } from './app.module';

runService({ name: 'media', rootModule: (config, logger) => MediaAppModule.forRoot(config, logger) });
