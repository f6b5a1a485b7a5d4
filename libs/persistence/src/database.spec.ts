import { DATABASE_KINDS, describeWithPostgres, openTestDatabase, TEST_DATABASE_URL } from '@gen/testing';
import { StatementNames } from './database';
import { GroupCommit } from './group-commit';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';

describeWithPostgres('PostgreSQL database', () => {
  it('survives a pooled connection killed by the server and serves the next query', async () => {
    const test = await openTestDatabase('postgres');
    const operator = new Client({ connectionString: TEST_DATABASE_URL });
    try {
      const [row] = await test.database.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      // Another session kills the idle pooled connection, as a server restart or an operator would.
      await operator.connect();
      const killed = await operator.query('SELECT pg_terminate_backend($1) AS done', [row!.pid]);
      expect(killed.rows).toEqual([{ done: true }]);
      await new Promise((r) => setTimeout(r, 200));
      expect(await test.database.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await operator.end();
      await test.close();
    }
  });

  it('survives a connection killed while checked out (a transaction, a held lock): the work fails, nothing else', async () => {
    const test = await openTestDatabase('postgres');
    const operator = new Client({ connectionString: TEST_DATABASE_URL });
    await operator.connect();
    const kill = async (pid: number): Promise<void> => {
      await operator.query('SELECT pg_terminate_backend($1)', [pid]);
      // The connection's end arrives while no statement runs on it: an 'error' event of the checked-out client.
      await new Promise((r) => setTimeout(r, 300));
    };
    try {
      await expect(
        test.database.transaction(async (tx) => {
          const [row] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          await kill(row!.pid);
          await tx.query('SELECT 1');
        }),
      ).rejects.toThrow();
      await expect(
        test.database.withLock('killed-holder', async (db) => {
          const [row] = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          await kill(row!.pid);
        }),
      ).rejects.toThrow();
      // The process lives on, and the broken connections left the pool.
      expect(await test.database.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(
        await test.database.withLock('killed-holder', async (db) => db.query('SELECT 2 AS two')),
      ).toEqual([{ two: 2 }]);
    } finally {
      await operator.end();
      await test.close();
    }
  });
});

/** Resolves on the next call of the returned callback. */
function signals(): { onNotify: () => void; next: () => Promise<void>; count: () => number } {
  let calls = 0;
  let waiting: (() => void) | undefined;
  return {
    onNotify: () => {
      calls += 1;
      waiting?.();
    },
    next: () => new Promise<void>((resolve) => (waiting = resolve)),
    count: () => calls,
  };
}

describe.each(DATABASE_KINDS)('Database.listen on %s', (kind) => {
  it('hears a NOTIFY once its transaction commits, and nothing after stop', async () => {
    const test = await openTestDatabase(kind);
    const heard = signals();
    const listening = test.database.listen('gts_listen_test', heard.onNotify);
    try {
      // Listening starts in the background; `ready` says when it is up (a NOTIFY before may be missed).
      await listening.ready;
      const first = heard.next();
      await test.database.transaction(async (tx) => {
        await tx.query(`SELECT pg_notify('gts_listen_test', '')`);
        await new Promise((r) => setTimeout(r, 100));
        expect(heard.count()).toBe(0);
      });
      await first;
      expect(heard.count()).toBe(1);
      await test.database.query(`SELECT pg_notify('gts_other_channel', '')`);
      await listening.stop();
      await test.database.query(`SELECT pg_notify('gts_listen_test', '')`);
      await new Promise((r) => setTimeout(r, 200));
      expect(heard.count()).toBe(1);
    } finally {
      await listening.stop();
      await test.close();
    }
  });

  it('refuses a channel name that is not a plain identifier', async () => {
    const test = await openTestDatabase(kind);
    try {
      expect(() => test.database.listen('x"; DROP TABLE y; --', () => undefined)).toThrow(/channel/);
    } finally {
      await test.close();
    }
  });
});

describeWithPostgres('Database.listen on postgres, connection lost', () => {
  it('listens again after its connection is killed, and says so once', async () => {
    const test = await openTestDatabase('postgres');
    const heard = signals();
    const listening = test.database.listen('gts_relisten_test', heard.onNotify);
    try {
      await new Promise((r) => setTimeout(r, 300));
      const killed = await test.database.query(
        `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
         WHERE datname = current_database() AND query = 'LISTEN gts_relisten_test'`,
      );
      expect(killed).toEqual([{ done: true }]);
      // Back within about a second, with one call for what may have been missed meanwhile.
      await heard.next();
      expect(heard.count()).toBe(1);
      const again = heard.next();
      await test.database.query(`SELECT pg_notify('gts_relisten_test', '')`);
      await again;
      expect(heard.count()).toBe(2);
    } finally {
      await listening.stop();
      await test.close();
    }
  });
});

describe('PGlite result parsers', () => {
  it('read every type our statements return as PGlite does with its whole parser table', async () => {
    const sql = `SELECT true AS "bool", 2::int2 AS "int2", 4::int4 AS "int4", 9007199254740993::int8 AS "int8",
      'é'::text AS "text", 'v'::varchar AS "varchar", '{"a":1}'::json AS "json", '{"b":[2]}'::jsonb AS "jsonb",
      1.5::float8 AS "float8", 12.345::numeric AS "numeric", '2026-11-23'::date AS "date",
      '2026-11-23T10:00:00.123Z'::timestamptz AS "timestamptz", ARRAY['a', 'b,c'] AS "text_array",
      ARRAY[1, 2]::int4[] AS "int4_array", ARRAY[3]::int8[] AS "int8_array", ARRAY[true, false] AS "bool_array",
      ARRAY['2026-11-23T10:00:00Z'::timestamptz] AS "timestamptz_array", ARRAY['{"c":3}'::jsonb] AS "jsonb_array",
      ARRAY[1.25]::numeric[] AS "numeric_array",
      ARRAY['0b3b5f0e-8f6a-4a1e-9d55-0c1d2e3f4a5b'::uuid] AS "uuid_array", NULL::text AS "null"`;
    const test = await openTestDatabase('pglite');
    const whole = new PGlite();
    try {
      const [trimmed] = await test.database.query<Record<string, unknown>>(sql);
      const reference = (await whole.query<Record<string, unknown>>(sql)).rows[0];
      expect(trimmed).toEqual(reference);
      expect(trimmed!['text_array']).toEqual(['a', 'b,c']);
      expect(trimmed!['timestamptz']).toEqual(new Date('2026-11-23T10:00:00.123Z'));
    } finally {
      await whole.close();
      await test.close();
    }
  });
});

describeWithPostgres('prepared statements on postgres', () => {
  it('prepares a parameterised statement once per connection and runs it by name after that', async () => {
    const test = await openTestDatabase('postgres');
    const sql = 'SELECT $1::int + 1 AS "next" /* prepared-statement test */';
    try {
      const counts = await test.database.withLock('gts_prepared_test', async (db) => {
        const results = [];
        for (let i = 0; i < 3; i += 1) results.push(...(await db.query<{ next: number }>(sql, [i])));
        const [row] = await db.query<{ count: string }>(
          `SELECT count(*)::text AS "count" FROM pg_prepared_statements WHERE "statement" = $1`,
          [sql],
        );
        return { results, prepared: row!.count };
      });
      expect(counts.results.map((r) => r.next)).toEqual([1, 2, 3]);
      expect(counts.prepared).toBe('1');
    } finally {
      await test.close();
    }
  });

  it('names each distinct text once, and runs texts past the limit unnamed', () => {
    const names = new StatementNames(2);
    const a = names.of('SELECT 1', undefined);
    expect(a).toEqual({ name: expect.stringMatching(/^gts_[0-9a-f]{24}$/), text: 'SELECT 1', values: [] });
    expect(names.of('SELECT 1', [])).toEqual(a);
    expect(names.of('SELECT 2', [5]).name).not.toBe(a.name);
    expect(names.of('SELECT 3', [7])).toEqual({ text: 'SELECT 3', values: [7] });
  });
});

describe.each(DATABASE_KINDS)('group commit on %s, callers arriving one event loop turn apart', (kind) => {
  it('lets the callers that arrive while a statement waits join the next group', async () => {
    const test = await openTestDatabase(kind);
    try {
      const { database } = test;
      await database.exec(`CREATE TABLE "arrivals" ("n" INT PRIMARY KEY)`);
      let statements = 0;
      const writes = new GroupCommit<number, void>({
        many: async (ns) => {
          statements += 1;
          await database.query(`INSERT INTO "arrivals" ("n") SELECT unnest($1::int[])`, [ns]);
          return ns.map(() => undefined);
        },
      });
      // Each caller starts in an event loop turn of its own, as requests read from sockets do.
      await Promise.all(
        Array.from(
          { length: 20 },
          (_, n) =>
            new Promise<void>((resolve, reject) => setImmediate(() => writes.run(n).then(resolve, reject))),
        ),
      );
      // PGlite runs a statement on this thread: without a turn of the loop before it, each of the 20 went alone.
      expect(statements).toBeLessThanOrEqual(3);
      const rows = await database.query<{ count: string | number }>(
        `SELECT count(*) AS "count" FROM "arrivals"`,
      );
      expect(Number(rows[0]!.count)).toBe(20);
    } finally {
      await test.close();
    }
  });
});
