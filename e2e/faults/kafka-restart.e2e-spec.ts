import { createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { startFleet, type Fleet } from '../support/fleet';
import { ApiClient, sleep, taskLoad, tasksWithPrompt, until } from '../support/load';
import { checkMoney } from '../support/money';
import { createPrivateKafka, type PrivateKafka } from '../support/private-servers';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The Kafka broker of a fleet killed with SIGKILL under a client load and started again on its data: no event
 * is lost (every task accepted before, during and after the outage runs and is settled), producers (the outbox
 * relays) and consumers (runners, tasks, billing) carry on by themselves. The broker is this test's own
 * (e2e/support/private-servers.ts), never the machine's shared one.
 */
describe('the Kafka broker restarted under load', () => {
  let kafka: PrivateKafka | undefined;
  let database: ScratchDatabase | undefined;
  let fleet: Fleet | undefined;

  beforeAll(async () => {
    kafka = await createPrivateKafka();
    database = await createScratchPostgres();
    fleet = await startFleet('kafka', { databaseUrl: database.url, env: { KAFKA_BROKERS: kafka.brokers } });
  }, 300_000);

  afterAll(async () => {
    // Every app drains and exits cleanly on SIGTERM, after the fault as before it.
    const code = await fleet?.stop();
    await database?.drop();
    await kafka?.remove();
    if (fleet) expect(code).toBe(0);
  }, 90_000);

  it('loses no event: every task accepted ends, settled, once the broker is back', async () => {
    const client = new ApiClient(fleet!.baseUrl, fleet!.apiKey);
    const tag = randomBytes(4).toString('hex');
    const prompt = `kafka-restart ${tag}`;
    const load = taskLoad(client, { loops: 6, prompt, delayMs: 200, keyPrefix: tag, pauseMs: 200 });
    await sleep(3000);
    const killedAt = Date.now();
    await kafka!.kill('SIGKILL');
    // The outage: clients go on creating tasks, whose events wait in the outboxes.
    await sleep(5000);
    const restartingAt = Date.now();
    await kafka!.start();
    const readyAt = Date.now();
    await sleep(3000);
    await load.stop();
    const stoppedAt = Date.now();

    const db = new Client({ connectionString: fleet!.databaseUrl });
    await db.connect();
    try {
      const run = tasksWithPrompt(db, prompt);
      const tasks = await run.list();
      expect(tasks.map((t) => t.id).sort()).toEqual([...new Set(load.accepted.values())].sort());
      const during = tasks.filter((t) => t.created.getTime() > killedAt && t.created.getTime() < readyAt);
      expect(during.length).toBeGreaterThan(0);
      // Waits on SQL, then reads each once.
      expect(await run.unsettledAfter(90_000)).toBe(0);
      const settledMs = Date.now() - readyAt;
      const final = (
        await Promise.all(
          tasks.map((t) => client.call('recordInfo', 'GET', `/api/v1/jobs/recordInfo?taskId=${t.id}`)),
        )
      ).map((a) => (a.json['data'] ?? a.json) as Json);
      expect(final.filter((r) => r['state'] !== 'succeeded' || r['settled'] !== true)).toEqual([]);
      // Every event went through: the outboxes drained.
      const waiting = async (): Promise<number> =>
        Number(
          (
            await db.query<{ n: string }>(
              `SELECT (SELECT count(*) FROM "tasks"."outbox") + (SELECT count(*) FROM "billing"."outbox") AS "n"`,
            )
          ).rows[0]!.n,
        );
      expect(await until(waiting, (n) => n === 0, 10_000)).toBe(0);

      const failures = client.outcomes.filter((o) => o.status >= 300 || o.status === 0);
      expect(failures.filter((o) => !(o.status === 503 && o.code === 50301))).toEqual([]);
      expect(load.wrong).toEqual([]);
      const money = await checkMoney(fleet!.databaseUrl);
      expect(money.violations).toEqual([]);
      expect(money.holds.open).toBe(0);
      // Every app rode through the outage on its own: none exited.
      expect(fleet!.members().filter((m) => m.restarts > 0)).toEqual([]);
      process.stdout.write(
        `kafka restart: ${client.outcomes.length} calls by 6 clients over ${Math.round((stoppedAt - killedAt + 3000) / 1000)} s, ` +
          `${tasks.length} tasks (${during.length} created while the broker was down), failures ${JSON.stringify(client.tally((o) => o.status >= 300 || o.status === 0))}; ` +
          `broker down ${restartingAt - killedAt} ms, restart took ${readyAt - restartingAt} ms; all tasks succeeded and settled ` +
          `${settledMs} ms after it was ready; no app restarted; holds open: 0\n`,
      );
    } finally {
      await db.end();
    }
  }, 180_000);
});
