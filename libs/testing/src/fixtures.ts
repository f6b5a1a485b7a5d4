import type { EventEnvelope } from '@gen/contracts';
import { openDatabase, type Database } from '@gen/persistence';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchPostgres, type DatabaseKind } from './databases';
import { seedPglite } from './pglite-template';

/** A test event: id `evt_<key>_<n>`, payload `{ n }`. */
export function testEvent(key: string, n: number, type = 'test.happened'): EventEnvelope<{ n: number }> {
  return {
    id: `evt_${key}_${n}`,
    type,
    version: 1,
    key,
    occurredAt: new Date().toISOString(),
    correlationId: 'req_test',
    causationId: 'req_test',
    payload: { n },
  };
}

export interface TestDatabase {
  readonly database: Database;
  /** A scratch directory of this test, removed with the database. */
  readonly dir: string;
  close(): Promise<void>;
}

/** A fresh, empty database of the given kind (a scratch PostgreSQL database or a PGlite copy), and its cleanup. */
export async function openTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'gts-db-'));
  const scratch = kind === 'postgres' ? await createScratchPostgres() : undefined;
  if (!scratch) await seedPglite(join(dir, 'pglite'));
  const database = await openDatabase({ databaseUrl: scratch?.url, pgliteDir: join(dir, 'pglite') });
  return {
    database,
    dir,
    async close() {
      await database.close();
      await scratch?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes a Prisma-layout migrations folder with one migration (`0001_<name>/migration.sql`) under `parent`. */
export function writeMigrationFolder(parent: string, name: string, sql: string): string {
  const directory = join(parent, 'migrations');
  mkdirSync(join(directory, `0001_${name}`), { recursive: true });
  writeFileSync(join(directory, 'migration_lock.toml'), 'provider = "postgresql"\n');
  writeFileSync(join(directory, `0001_${name}`, 'migration.sql'), sql);
  return directory;
}
