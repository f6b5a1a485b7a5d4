import { createScratchPostgres, describeWithPostgres, type ScratchDatabase } from '@gen/testing';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { SERVICE_SCHEMAS } from './service-schemas';

const root = join(__dirname, '..', '..', '..');
const main = join(root, 'dist', 'apps', 'migrate', 'src', 'main.js');

/** Every Prisma migrations folder under a library's prisma/ (the folders scripts/build.mjs copies). */
function migrationFolders(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      if (entry.name === 'migrations' && existsSync(join(path, 'migration_lock.toml'))) found.push(path);
      else walk(path);
    }
  };
  for (const lib of readdirSync(join(root, 'libs'))) {
    const prisma = join(root, 'libs', lib, 'prisma');
    if (existsSync(prisma)) walk(prisma);
  }
  return found.sort();
}

/** The migration folders of one migrations directory, as the runner reads them. */
function migrationNames(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(directory, e.name, 'migration.sql')))
    .map((e) => e.name)
    .sort();
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(env: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

describe('the schemas the migrate app applies', () => {
  it('are every migrations folder of the libraries, each schema once', () => {
    expect(SERVICE_SCHEMAS.map((s) => resolve(s.directory)).sort()).toEqual(migrationFolders());
    const names = SERVICE_SCHEMAS.map((s) => s.schema);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('the migrate app (the Helm migrations Job) as its own process', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
  });

  it('exits 2 naming DATABASE_URL when it is not set, touching nothing', async () => {
    const result = await run({});
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'Invalid configuration: DATABASE_URL is required (the PostgreSQL database to migrate)\n',
    );
    expect(result.stdout).toBe('');
  });

  it('exits 1 naming the server when PostgreSQL does not answer, without echoing the password', async () => {
    const result = await run({
      DATABASE_URL: 'postgresql://migrator:hunter2-secret@127.0.0.1:1/app',
      DEPENDENCY_TIMEOUT_MS: '300',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^migrate: failed: cannot reach PostgreSQL at 127\.0\.0\.1:1 within 300 ms: .*ECONNREFUSED/,
    );
    expect(result.stdout + result.stderr).not.toContain('hunter2-secret');
  });

  describeWithPostgres('against a fresh PostgreSQL database', () => {
    let database: ScratchDatabase;
    let client: Client;
    beforeAll(async () => {
      database = await createScratchPostgres();
      client = new Client({ connectionString: database.url });
      await client.connect();
    });
    afterAll(async () => {
      await client?.end();
      await database?.drop();
    });

    /** Per schema, the migrations recorded as finished, by name. */
    async function recorded(): Promise<Record<string, string[]>> {
      const out: Record<string, string[]> = {};
      for (const { schema } of SERVICE_SCHEMAS) {
        const { rows } = await client.query<{ migration_name: string }>(
          `SELECT migration_name FROM "${schema}"."_prisma_migrations"
           WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
        );
        out[schema] = rows.map((r) => r.migration_name);
      }
      return out;
    }

    it('applies every migration of every schema, then finds nothing to do on a second run', async () => {
      const expected = Object.fromEntries(
        SERVICE_SCHEMAS.map((s) => [s.schema, migrationNames(s.directory)]),
      );
      const total = Object.values(expected).reduce((sum, names) => sum + names.length, 0);
      expect(total).toBeGreaterThan(SERVICE_SCHEMAS.length);

      const first = await run({ DATABASE_URL: database.url });
      expect(first).toMatchObject({ code: 0, stderr: '' });
      expect(first.stdout).toContain(
        `migrate: ${SERVICE_SCHEMAS.length} schemas current, ${total} migration(s) applied\n`,
      );
      expect(first.stdout).toContain(`  tasks: ${expected['tasks']!.join(', ')}\n`);
      expect(await recorded()).toEqual(expected);
      // The tables are there, not only the history: one table of each schema's first migration.
      const { rows } = await client.query<{ name: string }>(
        `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
         WHERE (table_schema, table_name) IN (('accounts', 'accounts'), ('tasks', 'tasks'), ('runner', 'jobs'),
           ('billing', 'holds'), ('webhooks', 'deliveries'), ('media', 'files'), ('assets', 'assets'))
         ORDER BY 1`,
      );
      expect(rows.map((r) => r.name)).toEqual([
        'accounts.accounts',
        'assets.assets',
        'billing.holds',
        'media.files',
        'runner.jobs',
        'tasks.tasks',
        'webhooks.deliveries',
      ]);

      const second = await run({ DATABASE_URL: database.url });
      expect(second).toEqual({
        code: 0,
        stdout: `migrate: ${SERVICE_SCHEMAS.length} schemas current, 0 migration(s) applied\n`,
        stderr: '',
      });
      expect(await recorded()).toEqual(expected);
    });
  });
});
