import { migrate, openDatabase } from '@gen/persistence';
import { prismaDrift, seedPglite } from '@gen/testing';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ASSETS_SCHEMA } from './assets-schema';

// As libs/persistence's schema-drift.spec.ts does for the other services (on PGlite, for the same reason).
describe('asset library migrations match prisma/assets/schema.prisma', () => {
  it('leaves Prisma nothing to change after our runner applied them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gts-assets-drift-'));
    try {
      await seedPglite(join(dir, 'pglite'));
      const database = await openDatabase({ pgliteDir: join(dir, 'pglite') });
      await migrate(database, ASSETS_SCHEMA);
      await database.close();
      const db = new PGlite(join(dir, 'pglite'));
      await db.waitReady;
      try {
        const schemaFile = join(ASSETS_SCHEMA.directory, '..', 'schema.prisma');
        expect(await prismaDrift(schemaFile, new PrismaPGlite(db))).toBe('');
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
