import 'reflect-metadata';
import { Inject, Injectable, Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createLogger, loadConfig, LOGGER, type Logger } from '@gen/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { PlatformModule } from './platform.module';

/** A domain-like provider: it injects the core token and imports nothing of the platform. */
@Injectable()
class Reporter {
  constructor(@Inject(LOGGER) readonly logger: Logger) {}
}

@Module({ providers: [Reporter] })
class DomainModule {}

@Module({})
class RootModule {}

describe('PlatformModule', () => {
  it('provides the core LOGGER token to every module, without the module importing the platform', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gts-platform-'));
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const logger = createLogger('info', sink);
    const root: DynamicModule = {
      module: RootModule,
      imports: [PlatformModule.forRoot({ config, logger, openApi: [] }), DomainModule],
    };
    const app = await NestFactory.createApplicationContext(root, { logger: false });
    try {
      const reporter = app.get(Reporter);
      expect(reporter.logger).toBe(logger);
      reporter.logger.error({ taskId: 'task_1' }, 'could not be reported');
      expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
        expect.objectContaining({ level: 'error', taskId: 'task_1', msg: 'could not be reported' }),
      ]);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Opening a fresh PGlite cluster (the platform's database) takes seconds on a loaded machine.
  }, 60_000);
});
