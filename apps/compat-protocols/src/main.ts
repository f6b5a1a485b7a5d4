import { runService } from '@gen/platform';
import { CompatProtocolsAppModule } from './app.module';

runService({
  name: 'compat-protocols',
  // Kafka: a text run reports on `task.execution` from this process. S3: a finished video's signed URL.
  needs: ['database', 'redis', 'kafka', 's3'],
  rootModule: (config, logger) => CompatProtocolsAppModule.forRoot(config, logger),
});
