import {
  createScratchPostgres,
  seedPglite,
  DATABASE_KINDS,
  type DatabaseKind,
  type ScratchDatabase,
} from '@gen/testing';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from './database';
import { migrate } from './migrate';

const ACCOUNTS_MIGRATIONS = join(__dirname, '..', '..', 'accounts', 'prisma', 'migrations');

describe.each(DATABASE_KINDS)('migration runner on %s', (kind: DatabaseKind) => {
  let database: Database;
  let scratch: ScratchDatabase | undefined;
  let dir: string;
  /** The accounts schema's first migration alone: a fixed fixture, whatever later migrations the schema gains. */
  let ACCOUNTS: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gts-migrate-'));
    ACCOUNTS = join(dir, 'accounts-init');
    cpSync(join(ACCOUNTS_MIGRATIONS, '20261123000000_init'), join(ACCOUNTS, '20261123000000_init'), {
      recursive: true,
    });
    cpSync(join(ACCOUNTS_MIGRATIONS, 'migration_lock.toml'), join(ACCOUNTS, 'migration_lock.toml'));
    if (kind === 'postgres') {
      scratch = await createScratchPostgres();
      database = await openDatabase({ databaseUrl: scratch.url, pgliteDir: '' });
    } else {
      await seedPglite(join(dir, 'pglite'));
      database = await openDatabase({ pgliteDir: join(dir, 'pglite') });
    }
  });
  afterEach(async () => {
    await database.close();
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("applies a service's migrations once and records them as Prisma does", async () => {
    expect(await migrate(database, { schema: 'accounts', directory: ACCOUNTS })).toEqual({
      schema: 'accounts',
      applied: ['20261123000000_init'],
    });
    expect(await migrate(database, { schema: 'accounts', directory: ACCOUNTS })).toEqual({
      schema: 'accounts',
      applied: [],
    });
    const rows = await database.query<{
      migration_name: string;
      checksum: string;
      applied_steps_count: number;
      finished: boolean;
    }>(
      'SELECT migration_name, checksum, applied_steps_count, finished_at IS NOT NULL AS finished FROM "accounts"."_prisma_migrations"',
    );
    const sql = readFileSync(join(ACCOUNTS, '20261123000000_init', 'migration.sql'), 'utf8');
    expect(rows).toEqual([
      {
        migration_name: '20261123000000_init',
        checksum: createHash('sha256').update(sql).digest('hex'),
        applied_steps_count: 1,
        finished: true,
      },
    ]);
    const tables = await database.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'accounts' ORDER BY table_name",
    );
    expect(tables.map((t) => t.table_name)).toEqual([
      '_prisma_migrations',
      'account_groups',
      'accounts',
      'admin_tokens',
      'api_keys',
      'bootstrap',
      'console_sessions',
    ]);
  });

  it('refuses to start when an applied migration was edited', async () => {
    const copy = join(dir, 'migrations');
    cpSync(ACCOUNTS, copy, { recursive: true });
    await migrate(database, { schema: 'accounts', directory: copy });
    writeFileSync(
      join(copy, '20261123000000_init', 'migration.sql'),
      `${readFileSync(join(copy, '20261123000000_init', 'migration.sql'), 'utf8')}\n-- edited\n`,
    );
    await expect(migrate(database, { schema: 'accounts', directory: copy })).rejects.toThrow(
      'accounts/20261123000000_init was modified after it was applied',
    );
  });

  it('rolls back a failing migration completely and records nothing', async () => {
    const copy = join(dir, 'migrations');
    cpSync(ACCOUNTS, copy, { recursive: true });
    const bad = join(copy, '20261124000000_bad');
    cpSync(join(copy, '20261123000000_init'), bad, { recursive: true });
    writeFileSync(
      join(bad, 'migration.sql'),
      'CREATE TABLE "accounts"."half_done" (id TEXT);\nSELECT * FROM "accounts"."no_such_table";\n',
    );
    await expect(migrate(database, { schema: 'accounts', directory: copy })).rejects.toThrow(
      'accounts/20261124000000_bad failed',
    );
    const names = await database.query<{ migration_name: string }>(
      'SELECT migration_name FROM "accounts"."_prisma_migrations" ORDER BY 1',
    );
    expect(names.map((n) => n.migration_name)).toEqual(['20261123000000_init']);
    const halfDone = await database.query(
      "SELECT 1 FROM information_schema.tables WHERE table_schema = 'accounts' AND table_name = 'half_done'",
    );
    expect(halfDone).toEqual([]);
  });

  it('serializes concurrent runners: each migration is applied exactly once', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => migrate(database, { schema: 'accounts', directory: ACCOUNTS })),
    );
    expect(results.flatMap((r) => r.applied)).toEqual(['20261123000000_init']);
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(migrate(database, { schema: 'a"; DROP SCHEMA x; --', directory: ACCOUNTS })).rejects.toThrow(
      'invalid schema name',
    );
  });
});
