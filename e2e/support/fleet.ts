import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceSettings } from './app-process';
import { startService, type ServiceProcess } from './service-process';

const root = join(__dirname, '..', '..');

/** One process of the fleet as `DATA_DIR/fleet.json` lists it. */
export interface FleetMember {
  readonly name: string;
  readonly app: string;
  readonly url: string;
  readonly pid: number | null;
  readonly restarts: number;
}

/** `npm run start:fleet` running for one test file, on its own database, topics, Redis keys and objects. */
export interface Fleet {
  /** The ingress: the public URL. */
  readonly baseUrl: string;
  readonly databaseUrl: string;
  readonly dataDir: string;
  readonly apiKey: string;
  readonly adminToken: string;
  readonly accountId: string;
  readonly service: ServiceProcess;
  /** Every process of the fleet now, from fleet.json. */
  members(): FleetMember[];
  member(name: string): FleetMember;
  /**
   * Sends `signal` to one replica (e.g. `runner#1`) by the pid fleet.json gives; resolves with that pid once
   * the process is gone.
   */
  kill(name: string, signal?: NodeJS.Signals): Promise<number>;
  /**
   * Resolves once the supervisor started `name` again (a pid other than `oldPid`) and it answers /healthz:
   * the new process, when its pid was first seen and when it first answered (epoch ms).
   */
  restarted(
    name: string,
    oldPid: number,
    timeoutMs?: number,
  ): Promise<{ member: FleetMember; spawnedAt: number; healthyAt: number }>;
  /** SIGTERM (every app drains), SIGKILL to whatever still runs after 40 s; then DATA_DIR goes. */
  stop(): Promise<number | null>;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pids fleet.json names (none before the supervisor wrote it). */
function memberPids(dataDir: string): number[] {
  const file = join(dataDir, 'fleet.json');
  if (!existsSync(file)) return [];
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { apps: FleetMember[] }).apps
      .map((m) => m.pid)
      .filter((pid): pid is number => pid !== null);
  } catch {
    return [];
  }
}

function killAll(pids: number[]): void {
  for (const pid of new Set(pids)) if (alive(pid)) process.kill(pid, 'SIGKILL');
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Builds, then starts the fleet on `databaseUrl` (the caller's scratch database or private server, which the
 * caller also removes). `env` adds or overrides settings (e.g. a private broker).
 */
export async function startFleet(
  tag: string,
  options: { databaseUrl: string; env?: Record<string, string> },
): Promise<Fleet> {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
  const unique = `e2e-${tag}-${randomBytes(4).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), `gts-${tag}-`));
  const { databaseUrl } = options;
  let service: ServiceProcess | undefined;
  try {
    service = await startService('fleet', {
      ...serviceSettings(),
      DATA_DIR: dataDir,
      PORT: '0',
      DATABASE_URL: databaseUrl,
      KAFKA_TOPIC_PREFIX: `${unique}.`,
      REDIS_KEY_PREFIX: `${unique}:`,
      S3_KEY_PREFIX: `${unique}/`,
      RATE_LIMIT_BURST: '10000',
      RATE_LIMIT_PER_MINUTE: '100000',
      LOG_LEVEL: process.env['E2E_LOG_LEVEL'] ?? 'warn',
      ...options.env,
    });
    const running = service;
    const members = (): FleetMember[] =>
      (JSON.parse(readFileSync(join(dataDir, 'fleet.json'), 'utf8')) as { apps: FleetMember[] }).apps;
    const member = (name: string): FleetMember => {
      const found = members().find((m) => m.name === name);
      if (!found) throw new Error(`no ${name} in fleet.json`);
      return found;
    };
    return {
      baseUrl: running.baseUrl,
      databaseUrl,
      dataDir,
      apiKey: running.bootstrap.apiKey,
      adminToken: running.bootstrap.adminToken,
      accountId: running.bootstrap.accountId,
      service: running,
      members,
      member,
      async kill(name, signal = 'SIGKILL') {
        const { pid } = member(name);
        if (pid === null) throw new Error(`${name} is not running`);
        process.kill(pid, signal);
        while (alive(pid)) await sleep(20);
        return pid;
      },
      async restarted(name, oldPid, timeoutMs = 60_000) {
        const deadline = Date.now() + timeoutMs;
        let spawnedAt = 0;
        for (;;) {
          const now = member(name);
          if (now.pid !== null && now.pid !== oldPid) {
            spawnedAt ||= Date.now();
            const healthy = await fetch(`${now.url}/healthz`).then(
              (r) => r.ok,
              () => false,
            );
            if (healthy) return { member: now, spawnedAt, healthyAt: Date.now() };
          }
          if (Date.now() > deadline) throw new Error(`${name} not restarted within ${timeoutMs} ms`);
          await sleep(100);
        }
      },
      async stop() {
        // E2E_DUMP_DIR keeps the fleet's output (every app's warnings and errors) for a look afterwards.
        const dump = process.env['E2E_DUMP_DIR'];
        if (dump) writeFileSync(join(dump, `fleet-${tag}.log`), running.output());
        const before = memberPids(dataDir);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'timeout'>(
          (resolve) => (timer = setTimeout(() => resolve('timeout'), 40_000)),
        );
        const code = await Promise.race([running.stop(), late]);
        clearTimeout(timer);
        if (code === 'timeout') await running.stop('SIGKILL');
        // The supervisor drains its apps; any it could not (it was killed) are ended here, by their pid.
        killAll([...before, ...memberPids(dataDir)]);
        rmSync(dataDir, { recursive: true, force: true });
        return code === 'timeout' ? null : code;
      },
    };
  } catch (error) {
    await service?.stop('SIGKILL');
    killAll(memberPids(dataDir));
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
