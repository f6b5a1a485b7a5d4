import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { alive } from './fleet';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Ports free now on 127.0.0.1, all distinct. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

async function gone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < deadline) await sleep(50);
  return !alive(pid);
}

/**
 * A Kafka broker of one test's own, on free ports, never the machine's shared one: killed and started again by
 * the test (`createPrivateKafka` starts it). The same script as `npm run services:up` (scripts/services/kafka-up.sh) with its state in
 * a temporary directory; the jars are those services:up fetched (`.services/kafka/lib`, fetched there now with
 * mvn when missing).
 */
export interface PrivateKafka {
  readonly brokers: string;
  /** The broker's pid now (the script records it). */
  pid(): number;
  /** Starts the broker (again, on the same data) and resolves once its admin API answers. */
  start(): Promise<void>;
  /** Sends `signal` and resolves once the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Stops it (SIGTERM, SIGKILL after 20 s) and removes its data. */
  remove(): Promise<void>;
}

export async function createPrivateKafka(): Promise<PrivateKafka> {
  const [port, controllerPort] = await freePorts(2);
  const dir = mkdtempSync(join(tmpdir(), 'gts-kafka-'));
  const env = {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? '',
    SERVICES_DIR: dir,
    KAFKA_PORT: String(port),
    KAFKA_CONTROLLER_PORT: String(controllerPort),
    KAFKA_LIB_DIR: process.env['KAFKA_LIB_DIR'] ?? join(root, '.services', 'kafka', 'lib'),
  };
  const pidFile = join(dir, 'kafka.pid');
  const pid = (): number => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0);
  const kafka: PrivateKafka = {
    brokers: `127.0.0.1:${port}`,
    pid,
    async start() {
      try {
        await run('bash', [join(root, 'scripts', 'services', 'kafka-up.sh')], { env, timeout: 180_000 });
      } catch (error) {
        const log = existsSync(join(dir, 'kafka.log')) ? readFileSync(join(dir, 'kafka.log'), 'utf8') : '';
        throw new Error(`private Kafka did not start: ${(error as Error).message}\n${log.slice(-3000)}`);
      }
    },
    async kill(signal = 'SIGKILL') {
      const now = pid();
      if (now && alive(now)) {
        process.kill(now, signal);
        await gone(now, 30_000);
      }
    },
    async remove() {
      const now = pid();
      if (now && alive(now)) {
        process.kill(now, 'SIGTERM');
        if (!(await gone(now, 20_000))) {
          process.kill(now, 'SIGKILL');
          await gone(now, 10_000);
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await kafka.start();
  } catch (error) {
    await kafka.remove();
    throw error;
  }
  return kafka;
}

/**
 * A PostgreSQL cluster of one test's own (initdb in a temporary directory, trust authentication, a free port),
 * never the machine's shared server: stopped and started again by the test, removed after. PostgreSQL refuses
 * to run as root, so as root its programs run as the `postgres` user, which then owns the directory.
 */
export interface PrivatePostgres {
  /** The `postgres` database of the cluster. */
  readonly url: string;
  /** `pg_ctl stop` in `mode` (immediate: a crash, recovered from the WAL at the next start). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** `pg_ctl start`, resolving once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  remove(): Promise<void>;
}

/** The newest installed PostgreSQL's programs: `pg_config --bindir`, else /usr/lib/postgresql/<n>/bin. */
function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(base, versions[0], 'bin');
  }
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('no PostgreSQL server programs (initdb, pg_ctl) on this machine');
  }
}

export async function createPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  const [port] = await freePorts(1);
  const dir = mkdtempSync(join(tmpdir(), 'gts-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const pg = (program: string, args: string[]): Promise<unknown> =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args], { timeout: 120_000 })
      : run(join(bin, program), args, { timeout: 120_000 });
  await pg('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    // Every app of a fleet keeps a pool of 10 and a listening connection per outbox.
    '-c max_connections=300',
    '-c fsync=off',
  ].join(' ');
  const started = async (): Promise<void> => {
    await pg('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'postgres.log'),
      '-o',
      options,
      '-w',
      '-t',
      '60',
      'start',
    ]);
  };
  let running = false;
  const cluster: PrivatePostgres = {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async stop(mode = 'fast') {
      await pg('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
      running = false;
    },
    async start() {
      await started();
      running = true;
    },
    async remove() {
      if (running || existsSync(join(data, 'postmaster.pid')))
        await pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '60', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await cluster.start();
  } catch (error) {
    await cluster.remove();
    throw error;
  }
  return cluster;
}
