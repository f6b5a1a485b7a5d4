import { ConfigError, createLogger, loadConfig, type AppConfig } from '@gen/core';
import { migrate, openDatabase, type MigrationResult } from '@gen/persistence';
import { waitForDependencies } from '@gen/platform';
import { SERVICE_SCHEMAS } from './service-schemas';

/**
 * `node dist/apps/migrate/src/main.js`: applies the unapplied migrations of every service schema to
 * DATABASE_URL and exits; the Helm chart runs it as a pre-install/pre-upgrade Job, so that a new version's
 * schema is in place before its pods start. Each app still applies its own schema at start (a no-op after
 * this), under the same advisory lock, so running both at once is safe.
 * Exit 0: every schema is current; 2: a bad or missing setting; 1: the database did not answer within
 * DEPENDENCY_TIMEOUT_MS, or a migration failed (its transaction rolled back, the later ones not tried).
 */
async function main(config: AppConfig & { DATABASE_URL: string }): Promise<MigrationResult[]> {
  const logger = createLogger(config.LOG_LEVEL).child({ app: 'migrate' });
  // The wait of distributed mode, whatever MODE says: there is nothing to migrate without the server.
  await waitForDependencies({ ...config, MODE: 'distributed' }, ['database'], logger);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: '' });
  try {
    const results: MigrationResult[] = [];
    for (const target of SERVICE_SCHEMAS) {
      const result = await migrate(database, target);
      logger.info({ schema: result.schema, applied: result.applied }, 'schema migrated');
      results.push(result);
    }
    return results;
  } finally {
    await database.close();
  }
}

let config: AppConfig;
try {
  config = loadConfig();
  if (config.DATABASE_URL === undefined)
    throw new ConfigError('DATABASE_URL', 'is required (the PostgreSQL database to migrate)');
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
main({ ...config, DATABASE_URL: config.DATABASE_URL }).then(
  (results) => {
    const applied = results.reduce((sum, r) => sum + r.applied.length, 0);
    process.stdout.write(
      `migrate: ${results.length} schemas current, ${applied} migration(s) applied` +
        `${results
          .filter((r) => r.applied.length > 0)
          .map((r) => `\n  ${r.schema}: ${r.applied.join(', ')}`)
          .join('')}\n`,
    );
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`migrate: failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
