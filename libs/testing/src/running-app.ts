import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DynamicModule } from '@nestjs/common';
import { createLogger, loadConfig, type AppConfig, type Logger } from '@gen/core';
import { pgliteDirIn } from '@gen/persistence';
import { baseUrlOf, createHttpApp } from '@gen/platform';
import { seedPglite } from './pglite-template';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';

export interface RunningApp {
  readonly app: NestFastifyApplication;
  readonly baseUrl: string;
  readonly config: AppConfig;
  readonly dataDir: string;
  /** Every JSON log line the app wrote. */
  readonly logs: string[];
  close(): Promise<void>;
}

/**
 * Starts a composed app on a random port with its own DATA_DIR (PGlite) or a given DATABASE_URL, as a
 * client would meet it: real HTTP on 127.0.0.1. A DATA_DIR given in `env` is reused and kept (restarts).
 */
export async function startApp(
  rootModule: (config: AppConfig, logger: Logger) => DynamicModule,
  env: Record<string, string> = {},
): Promise<RunningApp> {
  const ownDir = env['DATA_DIR'] === undefined;
  const dataDir = env['DATA_DIR'] ?? mkdtempSync(join(tmpdir(), 'gts-test-'));
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env, DATA_DIR: dataDir });
  if (!config.DATABASE_URL && !existsSync(pgliteDirIn(dataDir))) await seedPglite(pgliteDirIn(dataDir));
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger(config.LOG_LEVEL, sink);
  const app = await createHttpApp(rootModule(config, logger), config, logger);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    baseUrl: baseUrlOf(app, config),
    config,
    dataDir,
    logs,
    async close() {
      await app.close();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
