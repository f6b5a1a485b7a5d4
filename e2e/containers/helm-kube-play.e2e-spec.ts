import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { APP_IMAGE, withImage } from '../support/containers';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { kafkaEnvironment } = require('../services') as {
  kafkaEnvironment: (port: number) => Record<string, string>;
};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const root = join(__dirname, '..', '..');
const chart = join(root, 'deploy', 'helm', 'generation-service');
const POSTGRES_IMAGE = 'localhost/postgres:15-bookworm';
const REDIS_IMAGE = 'localhost/redis:7-bookworm';
const KAFKA_IMAGE = 'localhost/kafka:4.4-bookworm';
const S3_IMAGE = 'localhost/s3proxy:4.1-bookworm';

const app = withImage(APP_IMAGE);
const services = [POSTGRES_IMAGE, REDIS_IMAGE, KAFKA_IMAGE, S3_IMAGE].map((image) => withImage(image));
const engine = app.engine;
const runs = engine === 'podman' && services.every((s) => s.engine === 'podman');
if (engine && engine !== 'podman')
  console.log('helm kube play: skipped (podman kube play; the engine is docker)');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function podman(...args: string[]): string {
  const result = spawnSync('podman', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`podman ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

/** Waits for `check` to hold (90 s at most); resolves with the milliseconds it took. */
async function until(what: string, check: () => boolean, timeoutMs = 90_000): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(250);
  }
  return Date.now() - started;
}

/** An HTTP request made from inside a container (its own loopback), as the kubelet's probes and a pod see it. */
function fetchIn(container: string, url: string, headers: Record<string, string> = {}, body?: unknown) {
  const script = `fetch(${JSON.stringify(url)}, ${JSON.stringify({
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })}).then(async (r) => process.stdout.write(JSON.stringify({ status: r.status, body: await r.text() })), (e) => { process.stdout.write(JSON.stringify({ status: 0, body: String(e) })); })`;
  const out = spawnSync('podman', ['exec', container, 'node', '-e', script], { encoding: 'utf8' });
  const answer = JSON.parse(out.stdout || '{"status":0,"body":""}') as { status: number; body: string };
  let json: Json = {};
  try {
    json = JSON.parse(answer.body) as Json;
  } catch {
    // not JSON
  }
  return { status: answer.status, json };
}

/**
 * The Helm chart's rendered manifests run by `podman kube play`: what Podman can run of them, run as rendered.
 * The ConfigMap and every app's Deployment are played as they are, on one Podman network with the fleet's
 * services (the local images) under the names the values give; the chart's Secrets become Podman secrets (Podman
 * 4.3 reads a secret's data as a JSON map, and plays a Secret document as something it cannot read back); the
 * migrations hook Job runs first as the Pod of its template (a Job's controller does that); and each Service
 * becomes a network alias of the pods its selector picks (Podman has no Services), given before the pods start.
 * Not run: Services as load balancers, the Ingress, HorizontalPodAutoscalers, PodDisruptionBudgets, replicas
 * beyond one per Deployment, probes as the kubelet runs them (Podman turns an httpGet probe on a named port into
 * a `curl` on port 0): the test asks each pod's /readyz itself. The containers' `ports` are dropped: Podman 4.3
 * publishes each on the host.
 */
(runs ? describe : describe.skip)('the Helm chart under podman kube play', () => {
  const tag = randomBytes(3).toString('hex');
  const release = `h${tag}`;
  const network = `gts-helm-${tag}`;
  const names = {
    postgres: `${release}-postgres`,
    redis: `${release}-redis`,
    kafka: `${release}-kafka`,
    s3: `${release}-s3`,
  };
  const work = mkdtempSync(join(tmpdir(), 'gts-helm-'));
  const secrets: string[] = [];
  const played: string[] = [];
  let manifests: Json[] = [];
  const figures: string[] = [];
  const fullname = `${release}-generation-service`;
  const pod = (component: string) => `${fullname}-${component}-pod-0`;
  const container = (component: string) => `${pod(component)}-${component}`;

  beforeAll(async () => {
    podman('network', 'create', network);
    podman(
      'run', '-d', '--network', network, '--name', names.postgres,
      '-e', 'POSTGRES_PASSWORD=helm-postgres', '-e', 'POSTGRES_DB=generation', POSTGRES_IMAGE,
    ); // prettier-ignore
    podman('run', '-d', '--network', network, '--name', names.redis, REDIS_IMAGE);
    const kafkaEnv = {
      ...kafkaEnvironment(9092),
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://${names.kafka}:9092`,
    };
    podman(
      'run', '-d', '--network', network, '--name', names.kafka,
      ...Object.entries(kafkaEnv).flatMap(([k, v]) => ['-e', `${k}=${v}`]), KAFKA_IMAGE,
    ); // prettier-ignore
    podman(
      'run', '-d', '--network', network, '--name', names.s3,
      '-e', 'MINIO_ROOT_USER=helm-identity', '-e', 'MINIO_ROOT_PASSWORD=helm-credential', S3_IMAGE, 'server', '/data',
    ); // prettier-ignore
    const ok = (...args: string[]) => spawnSync('podman', args, { stdio: 'ignore' }).status === 0;
    await until('postgres', () => ok('exec', names.postgres, 'pg_isready', '-U', 'postgres'));
    await until('redis', () => ok('exec', names.redis, 'redis-cli', 'ping'));
    await until('kafka', () =>
      ok(
        'exec',
        names.kafka,
        '/opt/kafka/bin/kafka-broker-api-versions.sh',
        '--bootstrap-server',
        'localhost:9092',
      ),
    );
    await until('s3', () => ok('exec', names.s3, 'mc', 'ready', 'local'));

    const helm = execFileSync(process.execPath, [join(root, 'scripts', 'helm-tools.mjs')], {
      encoding: 'utf8',
    }).trim();
    const set = {
      'image.repository': APP_IMAGE.split(':')[0]!,
      'database.url': `postgresql://postgres:helm-postgres@${names.postgres}:5432/generation`,
      'kafka.brokers': `${names.kafka}:9092`,
      'redis.url': `redis://${names.redis}:6379`,
      's3.endpoint': `http://${names.s3}:9000`,
      's3.forcePathStyle': 'true',
      's3.accessKeyId': 'helm-identity',
      's3.secretAccessKey': 'helm-credential',
    };
    const rendered = execFileSync(
      helm,
      ['template', release, chart, ...Object.entries(set).flatMap(([k, v]) => ['--set', `${k}=${v}`])],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    manifests = parseAllDocuments(rendered)
      .map((doc) => doc.toJS() as Json | null)
      .filter((m): m is Json => m !== null);

    for (const secret of manifests.filter((m) => m['kind'] === 'Secret')) {
      const file = join(work, `${secret['metadata']['name']}.json`);
      writeFileSync(file, JSON.stringify(secret['data'] ?? {}));
      podman('secret', 'create', secret['metadata']['name'], file);
      secrets.push(secret['metadata']['name'] as string);
    }
    const play = async (name: string, docs: Json[], start = true) => {
      const file = join(work, `${name}.yaml`);
      writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'));
      const started = Date.now();
      podman('kube', 'play', '--network', network, `--start=${start}`, file);
      played.push(file);
      return started;
    };
    // The pre-install hook: the migrations Job's pod, to its end.
    const job = manifests.find((m) => m['kind'] === 'Job')!;
    const migrate = job['metadata']['name'] as string;
    const jobStarted = await play('migrate', [
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: migrate }, spec: job['spec']['template']['spec'] },
    ]);
    const migrateContainer = `${migrate}-migrate`;
    await until(
      'migrate',
      () => podman('inspect', migrateContainer, '--format', '{{.State.Status}}') === 'exited',
    );
    expect(podman('inspect', migrateContainer, '--format', '{{.State.ExitCode}}')).toBe('0');
    figures.push(`migrations Job's pod: exited 0 in ${Date.now() - jobStarted} ms`);

    // Podman 4.3 publishes every containerPort on the host, which eight pods cannot share (they name the same
    // ports): the ports are left out, the apps listen on them all the same.
    const deployments = manifests
      .filter((m) => m['kind'] === 'Deployment')
      .map((m) => {
        const copy = structuredClone(m);
        for (const c of copy['spec']['template']['spec']['containers'] as Json[]) delete c['ports'];
        return copy;
      });
    // Created, not started: a pod's network is joined again below with its aliases, which gives it a new
    // address; an app started before that would keep connections from the old one that never answer.
    const appsStarted = await play(
      'apps',
      [...manifests.filter((m) => m['kind'] === 'ConfigMap'), ...deployments],
      false,
    );
    // Each Service: an alias on the network of the pods its selector picks.
    for (const service of manifests.filter((m) => m['kind'] === 'Service')) {
      const component = service['spec']['selector']['app.kubernetes.io/component'] as string;
      const infra = podman('pod', 'inspect', pod(component), '--format', '{{.InfraContainerID}}');
      podman('network', 'disconnect', network, infra);
      podman('network', 'connect', '--alias', service['metadata']['name'] as string, network, infra);
    }
    const components = manifests
      .filter((m) => m['kind'] === 'Deployment')
      .map((m) => m['spec']['template']['metadata']['labels']['app.kubernetes.io/component'] as string);
    for (const component of components) podman('pod', 'start', pod(component));
    await until(
      'every app ready',
      () => components.every((c) => fetchIn(container(c), 'http://127.0.0.1:8080/readyz').status === 200),
      // Eight pods starting at once on two cores: 16 s seen; a bound for a loaded machine.
      240_000,
    );
    figures.push(`${components.length} Deployments ready ${Date.now() - appsStarted} ms after kube play`);
  }, 450_000);

  afterAll(async () => {
    for (const file of played.reverse()) spawnSync('podman', ['kube', 'down', file], { stdio: 'ignore' });
    for (const name of secrets) spawnSync('podman', ['secret', 'rm', name], { stdio: 'ignore' });
    for (const name of Object.values(names)) spawnSync('podman', ['rm', '-f', name], { stdio: 'ignore' });
    spawnSync('podman', ['network', 'rm', '-f', network], { stdio: 'ignore' });
    rmSync(work, { recursive: true, force: true });
    process.stdout.write(figures.map((line) => `helm kube play: ${line}\n`).join(''));
  }, 120_000);

  it('runs every app as the rendered pod spec says: uid 10001, read-only root, its app as the argument', () => {
    for (const deployment of manifests.filter((m) => m['kind'] === 'Deployment')) {
      const component = deployment['spec']['template']['metadata']['labels']['app.kubernetes.io/component'];
      const name = container(component as string);
      expect(podman('inspect', name, '--format', '{{.State.Status}}')).toBe('running');
      expect(podman('exec', name, 'id', '-u')).toBe('10001');
      expect(podman('inspect', name, '--format', '{{.HostConfig.ReadonlyRootfs}}')).toBe('true');
      // The ConfigMap's and the Secret's settings reached it.
      const env = podman('inspect', name, '--format', '{{json .Config.Env}}');
      expect(env).toContain('"MODE=distributed"');
      expect(env).toMatch(/"ADMIN_TOKEN=gadm_/);
      expect(env).toContain(
        `"DATABASE_URL=postgresql://postgres:helm-postgres@${names.postgres}:5432/generation"`,
      );
    }
  });

  it('serves a task end to end across the pods: key by the gateway, hold by billing, run by the runner', async () => {
    const bootstrap = JSON.parse(podman('exec', container('gateway'), 'cat', '/data/bootstrap.json')) as {
      apiKey: string;
    };
    const auth = { authorization: `Bearer ${bootstrap.apiKey}` };
    // Billing's pod answers the balance after the gateway's (by its Service name) says whose key it is.
    const credit = fetchIn(container('billing'), 'http://127.0.0.1:8080/api/v1/chat/credit', auth);
    expect(credit).toMatchObject({ status: 200, json: { data: { available: '25' } } });
    const created = fetchIn(container('tasks'), 'http://127.0.0.1:8080/api/v1/jobs/createTask', auth, {
      model: 'local/sketch',
      input: { prompt: 'a fox under kube play' },
    });
    expect(created.status).toBe(202);
    const taskId = created.json['data']['taskId'] as string;
    let record: Json = {};
    await until(
      'the task settled',
      () => {
        record = fetchIn(
          container('tasks'),
          `http://127.0.0.1:8080/api/v1/jobs/recordInfo?taskId=${taskId}`,
          auth,
        ).json;
        return record['data']?.['settled'] === true;
      },
      150_000,
    ).catch((error: Error) => {
      // What each pod on the task's way said: the record alone does not tell which hop stopped.
      const logs = ['gateway', 'tasks', 'runner', 'billing'].map((c) => {
        const out = spawnSync('podman', ['logs', '--tail', '40', container(c)], { encoding: 'utf8' });
        return `--- ${c}\n${out.stdout}${out.stderr}`;
      });
      throw new Error(`${error.message}; last record ${JSON.stringify(record)}\n${logs.join('\n')}`);
    });
    expect(record['data']).toMatchObject({ state: 'succeeded', cost: '0.004' });
    const after = fetchIn(container('billing'), 'http://127.0.0.1:8080/api/v1/chat/credit', auth);
    expect(after).toMatchObject({ status: 200, json: { data: { available: '24.996', held: '0' } } });
  }, 240_000);
});
