import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './database';

export interface MigrationTarget {
  /** The service's PostgreSQL schema; its `_prisma_migrations` table lives there too. */
  readonly schema: string;
  /** A Prisma migrations folder: `<timestamp>_<name>/migration.sql` plus `migration_lock.toml`. */
  readonly directory: string;
}

export interface MigrationResult {
  readonly schema: string;
  readonly applied: string[];
}

const SAFE_SCHEMA = /^[a-z][a-z0-9_]{0,62}$/;

/**
 * Applies the unapplied migrations of one service under an advisory lock, each in its own transaction, and
 * records them in `<schema>._prisma_migrations` with Prisma's columns and the file's sha256 checksum, so that
 * `prisma migrate deploy` against `?schema=<schema>` sees the same history. A recorded migration whose file
 * changed stops start-up: history is never rewritten silently.
 */
export async function migrate(database: Database, target: MigrationTarget): Promise<MigrationResult> {
  const { schema, directory } = target;
  if (!SAFE_SCHEMA.test(schema)) throw new Error(`migrate: invalid schema name ${schema}`);
  if (!existsSync(join(directory, 'migration_lock.toml')))
    throw new Error(`migrate: ${directory} has no migration_lock.toml`);
  const names = readdirSync(directory, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(directory, e.name, 'migration.sql')))
    .map((e) => e.name)
    .sort();
  const table = `"${schema}"."_prisma_migrations"`;

  return database.withLock(`migrate:${schema}`, async (db) => {
    await db.exec(`CREATE SCHEMA IF NOT EXISTS "${schema}";
CREATE TABLE IF NOT EXISTS ${table} (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
);`);
    const rows = await db.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM ${table} WHERE rolled_back_at IS NULL`,
    );
    const recorded = new Map(rows.map((r) => [r.migration_name, r]));
    const applied: string[] = [];
    for (const name of names) {
      const sql = readFileSync(join(directory, name, 'migration.sql'), 'utf8');
      const checksum = createHash('sha256').update(sql, 'utf8').digest('hex');
      const previous = recorded.get(name);
      if (previous) {
        if (!previous.finished_at)
          throw new Error(`migrate: ${schema}/${name} was started but never finished; resolve it by hand`);
        if (previous.checksum !== checksum)
          throw new Error(`migrate: ${schema}/${name} was modified after it was applied`);
        continue;
      }
      await db
        .exec(
          `BEGIN;
${sql}
;
INSERT INTO ${table} (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
VALUES ('${randomUUID()}', '${checksum}', '${name.replace(/'/g, "''")}', now(), now(), 1);
COMMIT;`,
        )
        .catch(async (error: unknown) => {
          await db.exec('ROLLBACK').catch(() => undefined);
          throw new Error(`migrate: ${schema}/${name} failed: ${(error as Error).message}`);
        });
      applied.push(name);
    }
    return { schema, applied };
  });
}
