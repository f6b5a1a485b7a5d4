import type { FleetApp } from '@gen/contracts';
import type { Logger } from '@gen/core';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** One process of the fleet: an app's replica with the ports it was given for its whole life. */
export interface Replica {
  readonly app: FleetApp;
  /** 1-based, per app. */
  readonly index: number;
  readonly host: string;
  readonly httpPort: number;
  readonly serviceCallPort: number;
  /** METRICS_PORT: `/metrics` apart from the API, out of the ingress's reach. */
  readonly metricsPort: number;
}

export interface SupervisorOptions {
  readonly replicas: readonly Replica[];
  /** The environment every app gets; each replica adds its own PORT and SERVICE_CALL_PORT. */
  readonly env: Readonly<Record<string, string>>;
  /** How long a replica may take to listen at the fleet's start. */
  readonly startTimeoutMs: number;
  /** How long SIGTERM waits for a replica to drain before SIGKILL. */
  readonly stopTimeoutMs: number;
  readonly logger: Logger;
  /** Called whenever a replica (re)starts or exits, e.g. to rewrite DATA_DIR/fleet.json. */
  readonly onChange?: () => void;
  /** Where the apps' `main.js` files are: `dist/apps`. */
  readonly appsDir?: string;
}

const LISTENING = /^\S+ \((?:distributed|embedded) mode\) listening on \S+$/;

interface Running {
  readonly replica: Replica;
  child: ChildProcess | null;
  restarts: number;
  /** Exits in a row without a stable run between them: the backoff of the next restart. */
  streak: number;
  exited: Promise<number | null>;
}

/** A replica that listened this long before it exited was stable: its next restart is quick again. */
export const STABLE_RUN_MS = 60_000;

/**
 * The exits in a row, counting this one, of a replica that ran `ranMs` after it listened (null: it never
 * listened): a stable run starts the count again, so one crash a day is restarted after 1 s, not 10 s.
 */
export function nextStreak(streak: number, ranMs: number | null): number {
  return ranMs !== null && ranMs >= STABLE_RUN_MS ? 1 : streak + 1;
}

/** The wait before a restart: 1 s, doubling with each exit in a row, 10 s at most. */
export function restartDelayMs(streak: number): number {
  return Math.min(1000 * 2 ** Math.min(Math.max(streak, 1) - 1, 4), 10_000);
}

/** The name of a replica in logs and in fleet.json: `gateway#2`. */
export function replicaName(replica: Replica): string {
  return `${replica.app}#${replica.index}`;
}

/**
 * Starts every replica as its own process, forwards their output line by line (their own "listening on" line
 * stays inside: the fleet prints one for the ingress), restarts a replica that exits unexpectedly (1 s, then
 * up to 10 s apart while it keeps exiting, 1 s again after a run of a minute, as an orchestrator would), and on stop sends SIGTERM to each and waits for it to drain.
 */
export class Supervisor {
  private readonly running: Running[];
  private stopping = false;
  private readonly appsDir: string;

  constructor(private readonly options: SupervisorOptions) {
    this.appsDir = options.appsDir ?? join(__dirname, '..', '..');
    this.running = options.replicas.map((replica) => ({
      replica,
      child: null,
      restarts: 0,
      streak: 0,
      exited: Promise.resolve(null),
    }));
  }

  /**
   * Starts the replicas wave by wave (each wave once the one before listens); resolves once every replica
   * listens, rejects (after stopping the rest) when one fails to start.
   */
  async start(waves: readonly (readonly Replica[])[]): Promise<void> {
    for (const replicas of waves) {
      const wave = this.running.filter((entry) => replicas.includes(entry.replica));
      const results = await Promise.allSettled(wave.map(async (entry) => this.spawn(entry, true)));
      const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failed) {
        await this.stop();
        throw failed.reason;
      }
    }
  }

  /** The pid of each replica now running. */
  processes(): { replica: Replica; pid: number | null; restarts: number }[] {
    return this.running.map((entry) => ({
      replica: entry.replica,
      pid: entry.child?.pid ?? null,
      restarts: entry.restarts,
    }));
  }

  /** SIGTERM to every replica, SIGKILL to those still running after the stop timeout; resolves with their codes. */
  async stop(): Promise<(number | null)[]> {
    this.stopping = true;
    return Promise.all(
      this.running.map(async (entry) => {
        const child = entry.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return entry.exited;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), this.options.stopTimeoutMs);
        try {
          return await entry.exited;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
  }

  private spawn(entry: Running, atStart: boolean): Promise<void> {
    const { replica } = entry;
    const name = replicaName(replica);
    const child = spawn(process.execPath, [join(this.appsDir, replica.app, 'src', 'main.js')], {
      env: {
        ...this.options.env,
        HOST: replica.host,
        PORT: String(replica.httpPort),
        SERVICE_CALL_HOST: replica.host,
        SERVICE_CALL_PORT: String(replica.serviceCallPort),
        METRICS_PORT: String(replica.metricsPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    entry.child = child;
    entry.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    let tail = '';
    let listening = false;
    let listenedAt = 0;
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${name} did not listen within ${this.options.startTimeoutMs} ms:\n${tail}`));
      }, this.options.startTimeoutMs);
      let pending = '';
      child.stdout.on('data', (chunk: Buffer) => {
        pending += chunk.toString();
        let newline = pending.indexOf('\n');
        while (newline !== -1) {
          const line = pending.slice(0, newline);
          pending = pending.slice(newline + 1);
          if (!listening && LISTENING.test(line)) {
            listening = true;
            listenedAt = Date.now();
            clearTimeout(timer);
            resolve();
          } else {
            process.stdout.write(`${line}\n`);
          }
          newline = pending.indexOf('\n');
        }
      });
      child.stderr.on('data', (chunk: Buffer) => {
        tail = `${tail}${chunk.toString()}`.slice(-4000);
        process.stderr.write(chunk);
      });
      void entry.exited.then((code) => {
        clearTimeout(timer);
        if (!listening) reject(new Error(`${name} exited with ${code} before listening:\n${tail}`));
      });
    });
    void entry.exited.then((code) => {
      this.options.onChange?.();
      if (this.stopping || (atStart && !listening)) return;
      entry.restarts += 1;
      entry.streak = nextStreak(entry.streak, listening ? Date.now() - listenedAt : null);
      const delay = restartDelayMs(entry.streak);
      this.options.logger.warn({ replica: name, code, restartInMs: delay }, 'app exited; restarting it');
      setTimeout(() => {
        if (this.stopping) return;
        this.spawn(entry, false).catch((error: unknown) => {
          this.options.logger.error({ replica: name, err: error }, 'app restart failed');
        });
      }, delay).unref();
    });
    this.options.onChange?.();
    return ready.then(() => {
      this.options.onChange?.();
      this.options.logger.info(
        { replica: name, pid: child.pid, port: replica.httpPort, serviceCallPort: replica.serviceCallPort },
        'app listening',
      );
    });
  }
}
