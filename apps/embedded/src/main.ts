import { BootstrapDemoUseCase } from '@gen/accounts';
import { runService } from '@gen/platform';
import { EmbeddedModule } from './embedded.module';

runService({
  name: 'generation-task-service',
  needs: ['database', 'kafka', 'redis', 's3'],
  rootModule: (config, logger) => EmbeddedModule.forRoot(config, logger),
  afterListen: async (app, baseUrl) => {
    const boot = await app.get(BootstrapDemoUseCase).execute(baseUrl);
    if (boot.created && boot.file) {
      return [
        `First start: demo account ${boot.file.accountId} with $25.00 of wallet funds.`,
        `API key (shown once; also in ${boot.path}, mode 0600): ${boot.file.apiKey}`,
        `Callback signing secret (shown once; also in ${boot.path}): ${boot.file.signingSecret}`,
      ];
    }
    return [`Credentials: ${boot.path}`];
  },
});
