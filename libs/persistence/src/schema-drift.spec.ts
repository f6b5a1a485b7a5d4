import { prismaDrift, seedPglite } from '@gen/testing';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './database';
import { migrate } from './migrate';

const SERVICES = ['accounts', 'billing', 'tasks', 'webhooks', 'media'] as const;
const prismaDir = (service: string) => join(__dirname, '..', '..', service, 'prisma');

/** Applies a service's migrations with our runner to a fresh PGlite, then asks Prisma what is left to do. */
async function driftAfterMigrations(service: string, schemaFile: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'gts-drift-'));
  try {
    await seedPglite(join(dir, 'pglite'));
    const database = await openDatabase({ pgliteDir: join(dir, 'pglite') });
    await migrate(database, { schema: service, directory: join(prismaDir(service), 'migrations') });
    await database.close();
    const db = new PGlite(join(dir, 'pglite'));
    await db.waitReady;
    try {
      return await prismaDrift(schemaFile, new PrismaPGlite(db));
    } finally {
      await db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The check runs on PGlite: the WASM schema engine on npm cannot yet describe a PostgreSQL server through
// adapter-pg ("Column type 'char' could not be deserialized"). The SQL is the same on both databases, and the
// runner itself is tested on both in migrate.spec.ts.
describe('hand-written migrations match schema.prisma', () => {
  it.each(SERVICES)(
    '%s: Prisma finds nothing to change after our runner applied the migrations',
    async (service) => {
      expect(await driftAfterMigrations(service, join(prismaDir(service), 'schema.prisma'))).toBe('');
    },
  );

  it('notices a schema that the migrations do not build', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gts-drift-schema-'));
    try {
      const changed = join(dir, 'schema.prisma');
      const original = readFileSync(join(prismaDir('accounts'), 'schema.prisma'), 'utf8');
      writeFileSync(changed, original.replace(/(\n\s+name\s+String\n)/, '$1  nickname String?\n'));
      expect(readFileSync(changed, 'utf8')).toContain('nickname String?');
      expect(await driftAfterMigrations('accounts', changed)).toMatch(/ADD COLUMN\s+"nickname" TEXT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
