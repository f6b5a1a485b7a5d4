import { parseUsd } from '@gen/core';
import { createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  serviceCalls,
  serviceSettings,
  type ServiceCalls,
  startAppProcess,
  startIngress,
  type AppProcess,
  type AppsIngress,
} from '../support/app-process';

const root = join(__dirname, '..', '..');
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TASKS = 20;
const DELAY_MS = 4000;
const LEASE_MS = 4000;

/** The runner's task trail: one JSON log line per step, with the task id. */
function trail(app: AppProcess): { taskId: string; msg: string; time: number }[] {
  return app
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"taskId"'))
    .map((line) => JSON.parse(line) as { taskId: string; msg: string; time: string })
    .map((line) => ({ ...line, time: Date.parse(line.time) }));
}

/**
 * Two runners share the work of a fleet (distributed mode, real Kafka and PostgreSQL); one is killed with
 * SIGKILL while it runs tasks. The other takes them over once their leases lapse: every task succeeds, none
 * runs twice to completion, each is charged once. The killed runner, started again, is up within 5 s.
 */
describe('a runner killed under load (distributed mode)', () => {
  let database: ScratchDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  const apps: AppProcess[] = [];
  let ingress: AppsIngress;
  let calls: ServiceCalls;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    database = await createScratchPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'gts-failover-'));
    calls = await serviceCalls();
    env = {
      ...serviceSettings(),
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      // Its own topics and groups: nothing of another suite's fleet reaches this one.
      KAFKA_TOPIC_PREFIX: `e2e-failover-${randomBytes(4).toString('hex')}.`,
      RUNNER_CONCURRENCY: '8',
      RUNNER_LEASE_MS: String(LEASE_MS),
      RATE_LIMIT_BURST: '10000',
      RATE_LIMIT_PER_MINUTE: '100000',
      LOG_LEVEL: process.env['E2E_LOG_LEVEL'] ?? 'warn',
      // Runners call the media app only for media inputs, which these tasks have none of.
      SERVICE_ADDRESSES: calls.addresses,
    };
    // Together: the gateway's first start credits the demo account through the billing app (service calls).
    const started = await Promise.all(
      ['gateway', 'tasks', 'billing', 'catalog'].map((app) =>
        startAppProcess(app, { ...env, ...calls.env(app) }),
      ),
    );
    apps.push(...started);
    ingress = await startIngress(started);
  });

  afterAll(async () => {
    ingress?.close();
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the other runner takes over: every task succeeds once and is charged once', async () => {
    const runnerEnv = { ...env, LOG_LEVEL: 'info' };
    const runners = await Promise.all([
      startAppProcess('runner', runnerEnv),
      startAppProcess('runner', runnerEnv),
    ]);
    apps.push(...runners);
    const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      apiKey: string;
    };
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const call = async (path: string, body?: unknown): Promise<Json> => {
      const response = await fetch(`${ingress.baseUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as Json;
    };
    const before = (await call('/api/v1/chat/credit')).data;
    const created = await Promise.all(
      Array.from({ length: TASKS }, () =>
        call('/api/v1/jobs/createTask', {
          model: 'local/sketch',
          input: { prompt: 'failover', width: 64, height: 64, delay_ms: DELAY_MS },
        }),
      ),
    );
    const ids = created.map((c) => c.data.taskId as string);
    const cost = created[0]!.data.estimatedCost as string;

    // 16 run (8 per runner), 4 wait; then the busier runner dies mid-task.
    const startedOn = (app: AppProcess) => trail(app).filter((l) => l.msg === 'task started');
    for (let i = 0; i < 200 && runners.reduce((n, r) => n + startedOn(r).length, 0) < 16; i += 1)
      await new Promise((r) => setTimeout(r, 50));
    const [victim, survivor] =
      startedOn(runners[0]!).length >= startedOn(runners[1]!).length ? runners : [runners[1]!, runners[0]!];
    const orphans = startedOn(victim!).map((l) => l.taskId);
    expect(orphans.length).toBeGreaterThan(0);
    const killedAt = Date.now();
    expect(await victim!.stop('SIGKILL')).toBeNull();
    // Started again at once, it comes up quickly: it does not wait for the broker to give up on the dead one.
    const restarting = Date.now();
    const restarted = await startAppProcess('runner', runnerEnv);
    const startMs = Date.now() - restarting;
    apps.push(restarted);

    let records: Json[] = [];
    for (const end = Date.now() + 60_000; Date.now() < end;) {
      records = await Promise.all(
        ids.map(async (id) => (await call(`/api/v1/jobs/recordInfo?taskId=${id}`)).data),
      );
      if (records.every((r) => r.state === 'succeeded' && r.settled === true)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const doneMs = Date.now() - killedAt;
    expect(records.filter((r) => r.state !== 'succeeded').map((r) => `${r.taskId} ${r.state}`)).toEqual([]);

    // None ran twice to completion: exactly one "task succeeded" per task across every runner.
    const successes = [victim!, survivor!, restarted].flatMap((r) =>
      trail(r).filter((l) => l.msg === 'task succeeded'),
    );
    expect(successes.map((l) => l.taskId).sort()).toEqual([...ids].sort());
    // The dead runner's tasks were started again elsewhere, after their lease lapsed.
    const retaken = [survivor!, restarted].flatMap((r) =>
      trail(r).filter((l) => l.msg === 'task started again (lease lapsed)'),
    );
    expect(retaken.map((l) => l.taskId).sort()).toEqual([...orphans].sort());
    const takeoverMs = Math.max(...retaken.map((l) => l.time)) - killedAt;
    expect(takeoverMs).toBeGreaterThan(LEASE_MS / 2);
    expect(takeoverMs).toBeLessThan(LEASE_MS + 3000);
    expect(startMs).toBeLessThan(5000);
    process.stdout.write(
      `runner failover: ${orphans.length} tasks of the killed runner taken over ${takeoverMs} ms after the kill ` +
        `(lease ${LEASE_MS} ms); all ${TASKS} succeeded ${doneMs} ms after it; the restarted runner started in ${startMs} ms\n`,
    );

    const after = (await call('/api/v1/chat/credit')).data;
    expect(records.every((r) => r.cost === cost)).toBe(true);
    expect(parseUsd(after.held)!).toBe(0n);
    expect(parseUsd(before.available)! - parseUsd(after.available)!).toBe(parseUsd(cost)! * BigInt(TASKS));
  });
});
