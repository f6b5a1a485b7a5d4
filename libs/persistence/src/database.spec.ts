import { DATABASE_KINDS, openTestDatabase, TEST_DATABASE_URL } from '@gen/testing';
import { Client } from 'pg';

describe('PostgreSQL database', () => {
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
      // Listening starts in the background; a notification sent before it is up may be missed.
      await new Promise((r) => setTimeout(r, 300));
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

describe('Database.listen on postgres, connection lost', () => {
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
