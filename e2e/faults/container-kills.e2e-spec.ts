import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { stringify } from 'yaml';
import { freePort } from '../support/app-process';
import { composeFleetAvailable } from '../support/containers';
import { ApiClient, until } from '../support/load';
import { balanceOf, checkMoney, expectChargedOnceEach } from '../support/money';
import { expectTakenOverOnce } from '../support/runner-jobs';
import { startService, type ServiceProcess } from '../support/service-process';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const LEASE_MS = 4000;
const available = composeFleetAvailable();
const engine = (): string =>
  spawnSync('podman', ['version'], { stdio: 'ignore' }).status === 0 ? 'podman' : 'docker';

function inspect(name: string, format: string): string {
  const out = spawnSync(engine(), ['inspect', name, '--format', format], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`inspect ${name}: ${out.stderr}`);
  return out.stdout.trim();
}

/**
 * The compose fleet of `npm run start:containers` (docker/compose.yaml, every app and service its own container)
 * with a runner container killed by the engine (`podman kill`: SIGKILL to everything in it) while it holds
 * tasks and while clients keep creating them. Its PostgreSQL is published on a loopback port for the money
 * check (an extra compose file, `--file`), and the runners' lease is short so that the other runner takes the
 * dead one's tasks within seconds.
 */
(available ? describe : describe.skip)('compose fleet containers killed', () => {
  const project = `gts-kill-${randomBytes(3).toString('hex')}`;
  let work: string;
  let service: ServiceProcess;
  let databaseUrl: string;
  let api: ApiClient;
  let db: Client;
  const figures: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'gts-kill-'));
    const postgresPort = await freePort();
    const extra = join(work, 'extra.yaml');
    // The test polls every task's record several times a second: a per-key budget for that, in every app.
    const budget = { RATE_LIMIT_BURST: '10000', RATE_LIMIT_PER_MINUTE: '100000' };
    const apps = ['gateway', 'compat-protocols', 'tasks', 'billing', 'webhooks', 'media', 'catalog'];
    writeFileSync(
      extra,
      stringify({
        services: {
          postgres: { ports: [`127.0.0.1:${postgresPort}:5432`] },
          runner: {
            environment: { ...budget, RUNNER_LEASE_MS: String(LEASE_MS), RUNNER_CONCURRENCY: '4' },
          },
          ...Object.fromEntries(apps.map((app) => [app, { environment: budget }])),
        },
      }),
    );
    service = await startService(
      'containers',
      {
        DATA_DIR: join(work, 'data'),
        PORT: '0',
        HOME: process.env['HOME'] ?? '/root',
        COMPOSE_PROJECT_NAME: project,
        MINIO_PORT: String(await freePort()),
      },
      ['--file', extra],
    );
    databaseUrl = `postgresql://postgres:local-postgres@127.0.0.1:${postgresPort}/generation`;
    api = new ApiClient(service.baseUrl, service.bootstrap.apiKey);
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
  }, 330_000);

  afterAll(async () => {
    await db?.end().catch(() => undefined);
    const code = await service?.stop();
    rmSync(work, { recursive: true, force: true });
    process.stdout.write(figures.map((line) => `${line}\n`).join(''));
    expect(code).toBe(0);
  }, 90_000);

  afterEach(async () => {
    const money = await checkMoney(databaseUrl);
    expect(money.violations).toEqual([]);
    expect(money.openWithoutTask).toEqual([]);
  });

  const balance = () => balanceOf(api);

  async function create(prompt: string): Promise<string> {
    const { status, json } = await api.call('createTask', 'POST', '/api/v1/jobs/createTask', {
      model: 'local/sketch',
      input: { width: 64, height: 64, prompt, delay_ms: 3000 },
    });
    expect(status).toBe(202);
    return json['data']['taskId'] as string;
  }

  async function records(ids: readonly string[]): Promise<Json[]> {
    const answers = await Promise.all(
      ids.map((id) => api.call('recordInfo', 'GET', `/api/v1/jobs/recordInfo?taskId=${id}`)),
    );
    // An answer without a record (none came, or an error) stays visible in the comparison below.
    return answers.map(
      (a, i) =>
        (a.json?.['data'] as Json) ?? { taskId: ids[i], state: `answered ${a.status}`, settled: false },
    );
  }

  it('a runner container killed mid-task under load: every task succeeds, runs to its end once, is charged once', async () => {
    // The extra file's settings reached the runners beside compose's own.
    const runnerEnv = inspect(`${project}_runner_1`, '{{json .Config.Env}}');
    expect(runnerEnv).toContain(`"RUNNER_LEASE_MS=${LEASE_MS}"`);
    expect(runnerEnv).toContain('"KAFKA_BROKERS=kafka:9092"');
    const before = await balance();
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) ids.push(await create(`container-kill ${i}`));
    // Which runner container holds which tasks: the lease owner starts with the container's hostname.
    const runners = [1, 2].map((n) => `${project}_runner_${n}`);
    const hostOf = new Map(runners.map((name) => [inspect(name, '{{.Config.Hostname}}'), name]));
    const leases = async (): Promise<Map<string, string[]>> => {
      const rows = (
        await db.query<{ owner: string; task_id: string }>(
          `SELECT "owner", "task_id" FROM "runner"."jobs"
           WHERE "owner" IS NOT NULL AND "finished_at" IS NULL AND "task_id" = ANY($1)`,
          [ids],
        )
      ).rows;
      const byContainer = new Map<string, string[]>();
      for (const row of rows) {
        const container = hostOf.get(row.owner.split(':')[0]!) ?? row.owner;
        byContainer.set(container, [...(byContainer.get(container) ?? []), row.task_id]);
      }
      return byContainer;
    };
    const running = await until(leases, (m) => [...m.values()].flat().length >= 8, 60_000, 50);
    const victim = runners
      .map((name) => ({ name, orphans: running.get(name) ?? [] }))
      .sort((a, b) => b.orphans.length - a.orphans.length)[0]!;
    expect(victim.orphans.length).toBeGreaterThan(0);

    const killedAt = Date.now();
    const kill = spawnSync(engine(), ['kill', victim.name], { encoding: 'utf8' });
    expect(kill.status).toBe(0);
    // Clients keep creating tasks while it is down.
    for (let i = 0; i < 6; i += 1) ids.push(await create(`after the kill ${i}`));

    const final = await until(
      () => records(ids),
      (rs) => rs.every((r) => r?.['settled'] === true),
      90_000,
    );
    const doneMs = Date.now() - killedAt;
    expect(final.map((r) => `${r['taskId']} ${r['state']}`)).toEqual(ids.map((id) => `${id} succeeded`));
    // Every task ran to its end once; only the dead runner's tasks were claimed a second time.
    await expectTakenOverOnce(db, ids, victim.orphans);
    // Charged once each, nothing left held.
    expectChargedOnceEach(final, before, await balance());
    // A container the engine was told to kill stays down (Podman, like Docker, does not apply the restart policy
    // to a stop or kill it was asked for): the other runner did its work. The operator starts it again.
    expect(inspect(victim.name, '{{.State.Status}} {{.State.ExitCode}}')).toBe('exited 137');
    expect(spawnSync(engine(), ['start', victim.name]).status).toBe(0);
    const healthy = await until(
      async () => spawnSync(engine(), ['healthcheck', 'run', victim.name]).status === 0,
      (ok) => ok,
      60_000,
      250,
    );
    expect(healthy).toBe(true);
    figures.push(
      `runner container kill: ${victim.orphans.length} of 12 tasks running in ${victim.name}, 6 more created ` +
        `while it was down; all ${ids.length} succeeded and settled ${doneMs} ms after the kill (lease ${LEASE_MS} ms)`,
    );
  });
});
