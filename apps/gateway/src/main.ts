import { BootstrapDemoUseCase } from '@gen/accounts';
import { runService } from '@gen/platform';
import { GatewayAppModule } from './app.module';

runService({
  name: 'gateway',
  // Kafka: a text stream runs here and reports on `task.execution` (RunChatUseCase publishes it directly).
  needs: ['database', 'redis', 'kafka', 's3'],
  rootModule: (config, logger) => GatewayAppModule.forRoot(config, logger),
  afterListen: async (app, baseUrl) => {
    const boot = await app.get(BootstrapDemoUseCase).execute(baseUrl);
    return boot.created && boot.file
      ? [`API key (shown once): ${boot.file.apiKey}`]
      : [`Credentials: ${boot.path}`];
  },
});
