import { openTestDatabase, TEST_DATABASE_URL } from '@gen/testing';
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
