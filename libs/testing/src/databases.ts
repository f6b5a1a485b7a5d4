import { Client } from 'pg';
import { randomBytes } from 'node:crypto';

/** The PostgreSQL server tests use; in CI the machine's own server. */
export const TEST_DATABASE_URL =
  process.env['TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/test';

export interface ScratchDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh, empty PostgreSQL database for one test file, dropped afterwards. */
export async function createScratchPostgres(): Promise<ScratchDatabase> {
  const name = `gts_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** The two databases every persistence test runs on. */
export const DATABASE_KINDS = ['pglite', 'postgres'] as const;
export type DatabaseKind = (typeof DATABASE_KINDS)[number];
