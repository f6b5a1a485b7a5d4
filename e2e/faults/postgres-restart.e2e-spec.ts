import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { startFleet, type Fleet } from '../support/fleet';
import { ApiClient, sleep, taskLoad, tasksWithPrompt, until } from '../support/load';
import { checkMoney } from '../support/money';
import { createPrivatePostgres, type PrivatePostgres } from '../support/private-servers';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The PostgreSQL server of a fleet stopped under a client load (immediate shutdown: a crash, recovered from the
 * WAL) and started again: while it is down, calls that need it fail with 503 and business code 50301 (never a
 * 500), and once it is back every app carries on by itself: every task accepted ends, settled, and no hold is
 * left open. The server is this test's own cluster (e2e/support/private-servers.ts), never the machine's.
 */
describe('PostgreSQL restarted under load', () => {
  let postgres: PrivatePostgres | undefined;
  let fleet: Fleet | undefined;

  beforeAll(async () => {
    postgres = await createPrivatePostgres();
    fleet = await startFleet('postgres', { databaseUrl: postgres.url });
  }, 300_000);

  afterAll(async () => {
    // Every app drains and exits cleanly on SIGTERM, after the fault as before it.
    const code = await fleet?.stop();
    await postgres?.remove();
    if (fleet) expect(code).toBe(0);
  }, 90_000);

  it('answers 503 50301 while it is down and recovers after, with no hold left open', async () => {
    const client = new ApiClient(fleet!.baseUrl, fleet!.apiKey);
    const tag = randomBytes(4).toString('hex');
    const prompt = `postgres-restart ${tag}`;
    const load = taskLoad(client, { loops: 6, prompt, delayMs: 200, keyPrefix: tag, pauseMs: 200 });
    await sleep(3000);
    const stoppedAt = Date.now();
    await postgres!.stop('immediate');
    const downAt = Date.now();
    await sleep(5000);
    const restartingAt = Date.now();
    await postgres!.start();
    const upAt = Date.now();
    // Clients go on until a task is accepted again, then 3 s more.
    const firstOk = await until(
      async () => client.outcomes.find((o) => o.op === 'createTask' && o.status === 202 && o.at > upAt),
      (o) => o !== undefined,
      60_000,
      100,
    );
    await sleep(3000);
    await load.stop();
    const loadEnd = Date.now();

    // Calls failed while it was down, each with 503 50301, none otherwise.
    const failures = client.outcomes.filter((o) => o.status >= 300 || o.status === 0);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.filter((o) => !(o.status === 503 && o.code === 50301))).toEqual([]);
    expect(load.wrong).toEqual([]);
    expect(firstOk).toBeDefined();

    const db = new Client({ connectionString: fleet!.databaseUrl });
    await db.connect();
    try {
      const run = tasksWithPrompt(db, prompt);
      const tasks = (await run.list()).map((r) => r.id);
      expect(tasks.sort()).toEqual([...new Set(load.accepted.values())].sort());
      expect(await run.unsettledAfter(60_000)).toBe(0);
      const settledMs = Date.now() - upAt;
      const final = (
        await Promise.all(
          tasks.map((id) => client.call('recordInfo', 'GET', `/api/v1/jobs/recordInfo?taskId=${id}`)),
        )
      ).map((a) => (a.json['data'] ?? a.json) as Json);
      expect(final.filter((r) => r['state'] !== 'succeeded' || r['settled'] !== true)).toEqual([]);
      // No hold left open: every one was settled, none waits for the sweeper.
      const money = await checkMoney(fleet!.databaseUrl);
      expect(money.violations).toEqual([]);
      expect(money.holds.open).toBe(0);
      // Every app rode through the outage: none exited (a lost connection once ended tasks and billing).
      const restarts = fleet!.members().filter((m) => m.restarts > 0);
      expect(restarts).toEqual([]);
      const lastFailure = Math.max(...failures.map((o) => o.at + o.ms));
      process.stdout.write(
        `postgres restart: ${client.outcomes.length} calls by 6 clients over ${Math.round((loadEnd - stoppedAt + 3000) / 1000)} s, ` +
          `${tasks.length} tasks; down ${restartingAt - downAt} ms (stop took ${downAt - stoppedAt} ms, start ${upAt - restartingAt} ms); ` +
          `failures ${JSON.stringify(client.tally((o) => o.status >= 300 || o.status === 0))}, the first ` +
          `${Math.min(...failures.map((o) => o.at + o.ms)) - stoppedAt} ms after the stop, the last ${lastFailure - upAt} ms ` +
          `after the start; first task accepted ${firstOk!.at + firstOk!.ms - upAt} ms after the start; all settled ` +
          `${settledMs} ms after it; no app restarted; holds open: 0\n`,
      );
    } finally {
      await db.end();
    }
  }, 240_000);
});
