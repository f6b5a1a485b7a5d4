import { Client } from 'pg';
import { randomBytes } from 'node:crypto';

/** The PostgreSQL server tests use; in CI the machine's own server. */
export const TEST_DATABASE_URL =
  process.env['TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/test';

/** The Redis server tests use; in CI the machine's own server. */
export const TEST_REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * Set by `npm test`'s global setup (scripts/test-services.cjs) when PostgreSQL or Redis does not answer: the
 * reason, already printed once. The tests that need the service are then skipped rather than failing.
 */
export const POSTGRES_MISSING: string | undefined = process.env['TEST_POSTGRES_MISSING'] || undefined;
export const REDIS_MISSING: string | undefined = process.env['TEST_REDIS_MISSING'] || undefined;

/**
 * `describe`, or `describe.skip` when PostgreSQL is missing. Jest's globals are read when called, not when
 * this module loads, so the benches (plain Node) can use the other helpers here.
 */
export function describeWithPostgres(name: string, tests: () => void): void {
  (POSTGRES_MISSING ? describe.skip : describe)(name, tests);
}
/** `describe`, or `describe.skip` when Redis is missing. */
export function describeWithRedis(name: string, tests: () => void): void {
  (REDIS_MISSING ? describe.skip : describe)(name, tests);
}

export interface ScratchDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh, empty PostgreSQL database for one test file, dropped afterwards. */
export async function createScratchPostgres(): Promise<ScratchDatabase> {
  if (POSTGRES_MISSING) throw new Error(`no PostgreSQL for this test: ${POSTGRES_MISSING}`);
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

export type DatabaseKind = 'pglite' | 'postgres';
/** The two databases every persistence test runs on (PGlite only when PostgreSQL is missing). */
export const DATABASE_KINDS: readonly DatabaseKind[] = POSTGRES_MISSING ? ['pglite'] : ['pglite', 'postgres'];
