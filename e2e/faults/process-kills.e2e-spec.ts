import { createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Client } from 'pg';
import { startFleet, type Fleet } from '../support/fleet';
import { ApiClient, sleep, taskLoad, tasksWithPrompt, until } from '../support/load';
import { balanceOf, checkMoney, expectChargedOnceEach } from '../support/money';
import { expectTakenOverOnce } from '../support/runner-jobs';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const LEASE_MS = 4000;
const RETRY_SECONDS = 3;

/**
 * Processes of `npm run start:fleet` killed with SIGKILL while they work, one per test: a runner mid-task, the
 * webhooks app between two attempts of callback deliveries, a gateway replica under a client load behind the
 * ingress. The fleet's supervisor starts each again after a second. The tests see the fleet as a client and an
 * operator do: the public API through the ingress, DATA_DIR/fleet.json (which pid is which app) and SQL. Each
 * ends with the money invariant (e2e/support/money.ts).
 */
describe('fleet processes killed with SIGKILL', () => {
  let database: ScratchDatabase | undefined;
  let fleet: Fleet | undefined;
  let api: ApiClient;
  let db: Client;
  const figures: string[] = [];

  beforeAll(async () => {
    database = await createScratchPostgres();
    fleet = await startFleet('kills', {
      databaseUrl: database.url,
      env: {
        RUNNER_LEASE_MS: String(LEASE_MS),
        RUNNER_CONCURRENCY: '4',
        // The callback receiver below listens on port 80 of a loopback address.
        WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
        WEBHOOK_RETRY_SCHEDULE: `${RETRY_SECONDS},${RETRY_SECONDS},${RETRY_SECONDS},${RETRY_SECONDS}`,
      },
    });
    api = new ApiClient(fleet.baseUrl, fleet.apiKey);
    db = new Client({ connectionString: fleet.databaseUrl });
    await db.connect();
  }, 240_000);

  afterAll(async () => {
    await db?.end().catch(() => undefined);
    // Every app drains and exits cleanly on SIGTERM, after the fault as before it.
    const code = await fleet?.stop();
    await database?.drop();
    process.stdout.write(figures.map((line) => `${line}\n`).join(''));
    if (fleet) expect(code).toBe(0);
  }, 90_000);

  afterEach(async () => {
    const money = await checkMoney(fleet!.databaseUrl);
    expect(money.violations).toEqual([]);
    expect(money.openWithoutTask).toEqual([]);
  });

  const balance = () => balanceOf(api);

  async function create(
    input: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ): Promise<string> {
    const { status, json } = await api.call('createTask', 'POST', '/api/v1/jobs/createTask', {
      model: 'local/sketch',
      input: { width: 64, height: 64, ...input },
      ...extra,
    });
    expect(status).toBe(202);
    return json['data']['taskId'] as string;
  }

  async function records(ids: readonly string[]): Promise<Json[]> {
    return Promise.all(
      ids.map(
        async (id) => (await api.call('recordInfo', 'GET', `/api/v1/jobs/recordInfo?taskId=${id}`)).json,
      ),
    ).then((answers) => answers.map((a) => a['data'] as Json));
  }

  const ended = (rs: Json[]): boolean => rs.every((r) => r?.['settled'] === true);

  it('a runner killed mid-task: every task still succeeds, runs to its end once and is charged once', async () => {
    const before = await balance();
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) ids.push(await create({ prompt: `runner-kill ${i}`, delay_ms: 3000 }));
    // Both runners work (4 tasks each at most); the one holding more leases dies.
    const leases = async (): Promise<Map<number, string[]>> => {
      const rows = (
        await db.query<{ owner: string; task_id: string }>(
          `SELECT "owner", "task_id" FROM "runner"."jobs"
           WHERE "owner" IS NOT NULL AND "finished_at" IS NULL AND "task_id" = ANY($1)`,
          [ids],
        )
      ).rows;
      const byPid = new Map<number, string[]>();
      for (const row of rows) {
        const pid = Number(row.owner.split(':')[1]);
        byPid.set(pid, [...(byPid.get(pid) ?? []), row.task_id]);
      }
      return byPid;
    };
    const running = await until(leases, (m) => [...m.values()].flat().length >= 8, 30_000, 50);
    const runners = fleet!.members().filter((m) => m.app === 'runner');
    const victim = runners
      .map((r) => ({ name: r.name, orphans: running.get(r.pid!) ?? [] }))
      .sort((a, b) => b.orphans.length - a.orphans.length)[0]!;
    expect(victim.orphans.length).toBeGreaterThan(0);
    const killedAt = Date.now();
    const pid = await fleet!.kill(victim.name);
    const back = await fleet!.restarted(victim.name, pid);

    const final = await until(() => records(ids), ended, 60_000);
    const doneMs = Date.now() - killedAt;
    expect(final.map((r) => `${r['taskId']} ${r['state']}`)).toEqual(ids.map((id) => `${id} succeeded`));
    expect(final.every((r) => (r['output']['assets'] as unknown[]).length === 1)).toBe(true);
    // Every task ran to its end once: its queue row is finished, and only the dead runner's tasks were
    // claimed a second time.
    await expectTakenOverOnce(db, ids, victim.orphans);
    // Charged once each.
    expectChargedOnceEach(final, before, await balance());
    figures.push(
      `runner kill: ${victim.orphans.length} of ${ids.length} tasks running on ${victim.name}; started again ` +
        `${back.spawnedAt - killedAt} ms and answering ${back.healthyAt - killedAt} ms after the kill; all ${ids.length} succeeded and settled ${doneMs} ms after it ` +
        `(lease ${LEASE_MS} ms)`,
    );
  });

  it('the webhooks app killed between two attempts: every callback is delivered once, none lost', async () => {
    // The receiver fails each task's first attempt and acknowledges the next ones.
    const requests = new Map<string, number>();
    const acknowledged = new Map<string, number>();
    const acknowledgedAt = new Map<string, number>();
    const server = await listenOnLoopback80((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const taskId = (JSON.parse(body) as Json)['data']['taskId'] as string;
        const n = (requests.get(taskId) ?? 0) + 1;
        requests.set(taskId, n);
        if (n === 1) {
          res.statusCode = 500;
        } else {
          acknowledged.set(taskId, (acknowledged.get(taskId) ?? 0) + 1);
          if (!acknowledgedAt.has(taskId)) acknowledgedAt.set(taskId, Date.now());
        }
        res.end();
      });
    });
    try {
      const host = (server.address() as { address: string }).address;
      const callBackUrl = `http://${host}/hook`;
      const first: string[] = [];
      for (let i = 0; i < 6; i += 1) first.push(await create({ prompt: `hook ${i}` }, { callBackUrl }));
      // Every first attempt failed and was recorded; the next is due in RETRY_SECONDS: nothing is in flight.
      const between = async (): Promise<{ n: number; due: number }> => {
        const row = (
          await db.query<{ n: string; due: number }>(
            `SELECT count(*) AS "n", min(extract(epoch FROM "next_attempt_at" - now())) AS "due"
             FROM "webhooks"."deliveries" WHERE "task_id" = ANY($1) AND "state" = 'pending' AND "attempts" = 1`,
            [first],
          )
        ).rows[0]!;
        return { n: Number(row.n), due: Number(row.due) };
      };
      const state = await until(between, (s) => s.n === first.length && s.due > 1, 60_000, 50);
      expect(state.n).toBe(first.length);
      expect([...requests.values()]).toEqual(first.map(() => 1));
      const killedAt = Date.now();
      const pid = await fleet!.kill('webhooks#1');
      // Tasks that end while the webhooks app is down: their events wait in Kafka for its consumer.
      const second: string[] = [];
      for (let i = 0; i < 6; i += 1) second.push(await create({ prompt: `hook late ${i}` }, { callBackUrl }));
      const back = await fleet!.restarted('webhooks#1', pid);
      const all = [...first, ...second];
      await until(
        async () => all.filter((id) => acknowledged.has(id)).length,
        (n) => n === all.length,
        60_000,
        100,
      );
      const deliveredMs = Date.now() - killedAt;
      // Another round of the schedule: nothing more arrives.
      await sleep(RETRY_SECONDS * 1000 + 1000);
      expect(Object.fromEntries(all.map((id) => [id, acknowledged.get(id) ?? 0]))).toEqual(
        Object.fromEntries(all.map((id) => [id, 1])),
      );
      expect(Object.fromEntries(all.map((id) => [id, requests.get(id) ?? 0]))).toEqual(
        Object.fromEntries(all.map((id) => [id, 2])),
      );
      const rows = (
        await db.query<{ task_id: string; state: string; attempts: number; logged: string }>(
          `SELECT d."task_id", d."state", d."attempts",
                  (SELECT count(*) FROM "webhooks"."attempts" a WHERE a."delivery_id" = d."id") AS "logged"
           FROM "webhooks"."deliveries" d WHERE d."task_id" = ANY($1)`,
          [all],
        )
      ).rows;
      expect(rows.map((r) => `${r.task_id} ${r.state} ${r.attempts} ${r.logged}`).sort()).toEqual(
        all.map((id) => `${id} delivered 2 2`).sort(),
      );
      figures.push(
        `webhooks kill: killed with ${first.length} deliveries between attempts 1 and 2, ${second.length} more tasks ` +
          `ended while it was down; started again ${back.spawnedAt - killedAt} ms and answering ` +
          `${back.healthyAt - killedAt} ms after the kill; the first ${first.length} acknowledged ` +
          `${Math.max(...first.map((id) => acknowledgedAt.get(id)!)) - killedAt} ms and all ${all.length} ` +
          `${deliveredMs} ms after it, each once (schedule ${RETRY_SECONDS} s)`,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a gateway replica killed under load: clients see only 503 50301, never a 500 or a wrong answer', async () => {
    const load = new ApiClient(fleet!.baseUrl, fleet!.apiKey);
    const tag = randomBytes(4).toString('hex');
    const prompt = `gateway-kill ${tag}`;
    const clients = taskLoad(load, { loops: 6, prompt, delayMs: 100, keyPrefix: tag });
    await sleep(3000);
    const killedAt = Date.now();
    const pid = await fleet!.kill('gateway#1');
    const back = await fleet!.restarted('gateway#1', pid);
    await sleep(2000);
    await clients.stop();
    const stoppedAt = Date.now();

    const failures = load.outcomes.filter((o) => o.status !== 200 && o.status !== 202);
    const unexpected = failures.filter((o) => !(o.status === 503 && o.code === 50301) && o.status !== 0);
    expect(unexpected).toEqual([]);
    expect(clients.wrong).toEqual([]);
    // The load went on: calls kept succeeding through the kill and the restart.
    const okAfterKill = load.outcomes.filter((o) => o.at > killedAt && o.status < 300).length;
    expect(okAfterKill).toBeGreaterThan(20);
    const lastFailure = Math.max(0, ...failures.map((o) => o.at + o.ms));
    // Every accepted key made one task, and each of them ends, settled.
    const run = tasksWithPrompt(db, prompt);
    const tasks = (await run.list()).map((r) => r.id);
    expect(tasks.sort()).toEqual([...new Set(clients.accepted.values())].sort());
    // Waits on SQL, then reads each once.
    expect(await run.unsettledAfter(60_000)).toBe(0);
    const final = await records(tasks);
    expect(final.filter((r) => r['state'] !== 'succeeded' || r['settled'] !== true)).toEqual([]);
    // A retry that found its key held by a call the kill cut short waited for it (5 s), then finished it.
    const slowest = Math.max(...load.outcomes.filter((o) => o.op === 'createTask').map((o) => o.ms));
    figures.push(
      `gateway kill: ${load.outcomes.length} calls by 6 clients over ${Math.round((stoppedAt - killedAt + 3000) / 1000)} s, ` +
        `${clients.accepted.size} tasks; failures: ${JSON.stringify(load.tally((o) => o.status >= 300 || o.status === 0))} ` +
        `(last ${lastFailure ? lastFailure - killedAt : '-'} ms after the kill), slowest createTask ${slowest} ms; ` +
        `gateway#1 started again ${back.spawnedAt - killedAt} ms and answering ${back.healthyAt - killedAt} ms after it`,
    );
  });
});

/** A plain HTTP server on port 80 of a loopback address of its own (callback URLs may not name a port). */
async function listenOnLoopback80(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  for (let tries = 0; ; tries += 1) {
    const server = createServer(handler);
    const host = `127.0.0.${10 + Math.floor(Math.random() * 240)}`;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(80, host, resolve);
      });
      return server;
    } catch (error) {
      if (tries >= 10) throw error;
    }
  }
}
