#!/usr/bin/env node
/**
 * npm run start:containers [-- --remove-data] [-- --file extra.yaml ...]
 *
 * The fleet of docker/compose.yaml in containers, with Podman (podman-compose) or Docker (`docker compose`),
 * whichever answers: every app, the migrations entry, the nginx ingress, PostgreSQL, Redis, Kafka and the S3
 * server. Serves the public API on PORT (default 8080; 0 picks a free port) through the ingress, and writes the
 * demo account's bootstrap.json to DATA_DIR (default ./data) on this machine, as `npm start` and
 * `npm run start:fleet` do. SIGTERM or SIGINT takes the containers down (each app drains first) and removes
 * them; the named volumes (database, Kafka log, objects) stay for the next start unless --remove-data.
 *
 * Images: the app image of `npm run images:build` (built first when missing), and for each service the local
 * image images:build made from Debian's packages when there is one, else compose's default (a public image).
 * GTS_IMAGE, INGRESS_IMAGE, POSTGRES_IMAGE, REDIS_IMAGE, KAFKA_IMAGE and S3_IMAGE choose others. Several fleets
 * on one machine: COMPOSE_PROJECT_NAME (default generation-service), PORT and MINIO_PORT apart.
 *
 * podman-compose 1.0 ignores depends_on's conditions and runs no health checks without systemd, so with Podman
 * the containers are created by compose and started here in the order those conditions give (a service once
 * every dependency is started, healthy by its own health check run now, or exited 0). `docker compose up
 * --wait` does the same itself.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { APP_IMAGE, SERVICE_IMAGES, containerEngine, imageExists } from './images.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const composeFile = join(root, 'docker', 'compose.yaml');
/** The app image's user (docker/Dockerfile): the owner of a DATA_DIR made by root. */
const APP_UID = 10001;
/** Each local image of images:build, by the compose variable that selects it. */
const LOCAL_IMAGES = {
  INGRESS_IMAGE: 'nginx',
  POSTGRES_IMAGE: 'postgres',
  REDIS_IMAGE: 'redis',
  KAFKA_IMAGE: 'kafka',
  S3_IMAGE: 's3proxy',
};
const START_TIMEOUT_MS = 300_000;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const say = (line) => process.stdout.write(`containers: ${line}\n`);

function freePort(host) {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** `docker compose` (the plugin) or `docker-compose` for Docker; podman-compose for Podman. */
function composeCommand(engine) {
  if (engine === 'docker') {
    if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0)
      return ['docker', 'compose'];
    return ['docker-compose'];
  }
  if (spawnSync('podman-compose', ['version'], { stdio: 'ignore' }).status !== 0)
    throw new Error('podman answers but podman-compose does not: apt-get install podman-compose');
  return ['podman-compose'];
}

function parseArgs(argv) {
  const options = { removeData: false, files: [] };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--remove-data') options.removeData = true;
    else if (argv[i] === '--file') options.files.push(resolve(argv[(i += 1)]));
    else throw new Error(`unknown argument ${argv[i]} (--remove-data, --file extra.yaml)`);
  }
  return options;
}

/** The image each compose variable names: the caller's, else a local image of images:build, else compose's. */
function serviceImages(engine) {
  const chosen = { GTS_IMAGE: process.env.GTS_IMAGE || APP_IMAGE };
  for (const [variable, name] of Object.entries(LOCAL_IMAGES)) {
    if (process.env[variable]) chosen[variable] = process.env[variable];
    else {
      const local = SERVICE_IMAGES.find((s) => s.image.startsWith(`localhost/${name}:`));
      if (local && imageExists(engine, local.image)) chosen[variable] = local.image;
    }
  }
  return chosen;
}

/**
 * DATA_DIR on this machine, mounted at the gateways' /data (where the image writes bootstrap.json): owned by the
 * caller, whose uid the gateways then run as; made by root, it is given to the image's own user instead.
 */
function dataDirectory() {
  const dir = resolve(process.env.DATA_DIR || join(root, 'data'));
  mkdirSync(dir, { recursive: true });
  const uid = process.getuid();
  if (uid === 0) {
    chownSync(dir, APP_UID, APP_UID);
    // A bootstrap.json of an earlier `npm start` as root (mode 0600) would refuse the gateway's rewrite.
    const bootstrap = join(dir, 'bootstrap.json');
    if (existsSync(bootstrap)) chownSync(bootstrap, APP_UID, APP_UID);
    return { dir, user: `${APP_UID}:${APP_UID}` };
  }
  return { dir, user: `${uid}:${process.getgid()}` };
}

/** Compose's own view of the services: depends_on, replicas, whether a health check is declared. */
function servicesOf(files) {
  const services = {};
  for (const file of files) {
    const doc = parse(readFileSync(file, 'utf8'), { merge: true }) ?? {};
    for (const [name, desc] of Object.entries(doc.services ?? {})) {
      services[name] = { ...(services[name] ?? {}), ...desc };
    }
  }
  return Object.entries(services).map(([name, desc]) => {
    const raw = desc.depends_on ?? {};
    const depends = Array.isArray(raw)
      ? raw.map((service) => ({ service, condition: 'service_started' }))
      : Object.entries(raw).map(([service, c]) => ({
          service,
          condition: c?.condition ?? 'service_started',
        }));
    return { name, depends, replicas: Number(desc.deploy?.replicas ?? 1) };
  });
}

function engineOut(engine, args) {
  return execFileSync(engine, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Every container compose made for the project, by service. */
function containersOf(engine, project) {
  const out = engineOut(engine, [
    'ps',
    '-a',
    '--filter',
    `label=com.docker.compose.project=${project}`,
    '--format',
    '{{.Names}} {{.Labels}}',
  ]);
  const byService = new Map();
  for (const line of out.split('\n').filter(Boolean)) {
    const name = line.split(' ')[0];
    const service = engineOut(engine, [
      'inspect',
      name,
      '--format',
      '{{index .Config.Labels "com.docker.compose.service"}}',
    ]);
    byService.set(service, [...(byService.get(service) ?? []), name]);
  }
  return byService;
}

function state(engine, name) {
  const [status, code] = engineOut(engine, [
    'inspect',
    name,
    '--format',
    '{{.State.Status}} {{.State.ExitCode}}',
  ]).split(' ');
  return { status, code: Number(code) };
}

const healthy = (engine, name) =>
  spawnSync(engine, ['healthcheck', 'run', name], { stdio: 'ignore', timeout: 30_000 }).status === 0;

/** Starts the project's containers in the order of depends_on's conditions, checking them itself. */
async function startInOrder(engine, project, services) {
  const containers = containersOf(engine, project);
  const started = new Set();
  const ready = new Set();
  const deadline = Date.now() + START_TIMEOUT_MS;
  const satisfied = ({ service, condition }) => {
    if (!started.has(service)) return false;
    if (condition === 'service_started') return true;
    const key = `${service}:${condition}`;
    if (ready.has(key)) return true;
    const names = containers.get(service) ?? [];
    let ok;
    if (condition === 'service_completed_successfully') {
      ok = names.every((name) => {
        const { status, code } = state(engine, name);
        if (status === 'exited' && code !== 0) {
          const logs = spawnSync(engine, ['logs', '--tail', '40', name], { encoding: 'utf8' });
          throw new Error(`${name} exited with ${code}:\n${logs.stdout}${logs.stderr}`);
        }
        return status === 'exited';
      });
    } else ok = names.every((name) => healthy(engine, name));
    if (ok) ready.add(key);
    return ok;
  };
  while (started.size < services.length) {
    if (Date.now() > deadline) {
      const waiting = services.filter((s) => !started.has(s.name)).map((s) => s.name);
      throw new Error(`not started within ${START_TIMEOUT_MS / 1000} s: ${waiting.join(', ')}`);
    }
    let progressed = false;
    for (const service of services) {
      if (started.has(service.name) || !service.depends.every(satisfied)) continue;
      const names = containers.get(service.name) ?? [];
      if (names.length === 0) throw new Error(`compose made no container for ${service.name}`);
      engineOut(engine, ['start', ...names]);
      started.add(service.name);
      say(`started ${service.name}${names.length > 1 ? ` (${names.length} replicas)` : ''}`);
      progressed = true;
    }
    if (!progressed) await sleep(500);
  }
}

/** Resolves once the public URL answers /readyz with 200. */
async function waitReady(url) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not answering yet
    }
    await sleep(500);
  }
  throw new Error(`${url}/readyz did not answer 200 within ${START_TIMEOUT_MS / 1000} s`);
}

/**
 * Whether a gateway wrote bootstrap.json in this start (it does so just after it listens): a first start makes
 * the demo account, a later one refreshes the file's baseUrl. False when the database (a kept volume) has the
 * account but DATA_DIR has no file.
 */
async function bootstrapWritten(file, since) {
  for (let waited = 0; waited < 15_000; waited += 200) {
    if (existsSync(file) && statSync(file).mtimeMs >= since) return true;
    await sleep(200);
  }
  return false;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const engine = containerEngine();
  if (!engine) throw new Error('neither podman nor docker answers (see docs/operations.md, "Containers")');
  const compose = composeCommand(engine);
  if (!process.env.GTS_IMAGE && !imageExists(engine, APP_IMAGE)) {
    say(`${APP_IMAGE} is missing: npm run images:build`);
    const built = spawnSync(process.execPath, [join(root, 'scripts', 'containers', 'images.mjs')], {
      stdio: 'inherit',
    });
    if (built.status !== 0) throw new Error('images:build failed');
  }
  const project = process.env.COMPOSE_PROJECT_NAME || 'generation-service';
  const host = process.env.HOST || '127.0.0.1';
  const port = Number(process.env.PORT ?? 8080) || (await freePort(host));
  const publicHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const baseUrl = process.env.PUBLIC_BASE_URL?.replace(/\/$/, '') || `http://${publicHost}:${port}`;
  const minioPort = Number(process.env.MINIO_PORT || 9000);
  const data = dataDirectory();
  const images = serviceImages(engine);
  // The host's DATA_DIR at the gateways' /data: bootstrap.json is written there.
  const work = mkdtempSync(join(tmpdir(), 'gts-compose-'));
  const override = join(work, 'host.yaml');
  writeFileSync(
    override,
    stringify({ services: { gateway: { user: data.user, volumes: [`${data.dir}:/data`] } } }),
  );
  const files = [composeFile, override, ...options.files];
  const env = {
    ...process.env,
    ...images,
    COMPOSE_PROJECT_NAME: project,
    PORT: String(port),
    PUBLISH_ADDRESS: host,
    PUBLIC_BASE_URL: baseUrl,
    MINIO_PORT: String(minioPort),
    S3_PUBLIC_ENDPOINT: process.env.S3_PUBLIC_ENDPOINT || `http://${publicHost}:${minioPort}`,
  };
  const composeArgs = ['-p', project, ...files.flatMap((file) => ['-f', file])];
  // podman-compose reports on stderr what it checks (missing volumes before it makes them, systemd timers it
  // cannot remove without systemd): shown only when the command fails.
  const run = (args) => {
    const result = spawnSync(compose[0], [...compose.slice(1), ...composeArgs, ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      cwd: root,
    });
    if (result.status !== 0)
      throw new Error(`${compose.join(' ')} ${args[0]} failed (exit ${result.status}):\n${result.stderr}`);
  };
  let down = null;
  const takeDown = () => {
    down ??= (async () => {
      say(`stopping ${project}: every app drains, then the containers are removed`);
      // Longer than the apps' SHUTDOWN_GRACE_MS, as compose's stop_grace_period.
      run(['down', '-t', '15', ...(options.removeData ? ['-v'] : [])]);
      // podman-compose 1.0 leaves the project's network behind.
      if (engine === 'podman')
        spawnSync('podman', ['network', 'rm', '-f', `${project}_default`], { stdio: 'ignore' });
      rmSync(work, { recursive: true, force: true });
      say(`${project} removed${options.removeData ? ' with its volumes' : ''}`);
    })();
    return down;
  };
  let stopped = false;
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.on(signal, () => {
      stopped = true;
      void takeDown().then(
        () => process.exit(0),
        (error) => {
          process.stderr.write(`containers: ${error.message}\n`);
          process.exit(1);
        },
      );
    });
  }
  const since = Date.now() - 1000;
  say(`${project} with ${engine} (${compose.join(' ')}): ${Object.values(images).join(', ')}`);
  try {
    if (engine === 'docker') run(['up', '-d', '--no-build', '--wait']);
    else {
      // Created, not started (podman-compose passes -d on to `podman create`, which refuses it).
      run(['up', '--no-build', '--no-start']);
      await startInOrder(engine, project, servicesOf(files));
    }
    await waitReady(baseUrl);
  } catch (error) {
    if (stopped) return;
    process.stderr.write(`containers: start-up failed: ${error.message}\n`);
    await takeDown().catch(() => undefined);
    process.exit(1);
  }
  if (stopped) return;
  const bootstrap = join(data.dir, 'bootstrap.json');
  const written = await bootstrapWritten(bootstrap, since);
  if (stopped) return;
  process.stdout.write(`containers (distributed mode, ${engine}) listening on ${baseUrl}\n`);
  say(
    written
      ? `the demo account's key and admin token: ${bootstrap}`
      : `the database (volume ${project}_postgres) has the demo account, but ${bootstrap} is not there: ` +
          'its key was shown once. For a new one, stop a run started with `-- --remove-data` (its volumes go).',
  );
  say(`logs: ${compose.join(' ')} -p ${project} logs <service>; stop with Ctrl-C (SIGINT) or SIGTERM`);
  // Stay in the foreground until a signal, as `npm start` does.
  setInterval(() => undefined, 1 << 30);
}

main().catch((error) => {
  process.stderr.write(`containers: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
