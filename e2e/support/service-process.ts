import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/**
 * A running `npm start`, `npm run start:fleet` or `npm run start:containers`: its public URL, its bootstrap and
 * how to stop it.
 */
export interface ServiceProcess {
  readonly baseUrl: string;
  readonly pid: number;
  readonly bootstrap: { baseUrl: string; accountId: string; apiKey: string; adminToken: string };
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The command of each way to start the service, with the line it prints once it serves. */
const STARTS = {
  embedded: {
    script: join(root, 'dist', 'apps', 'embedded', 'src', 'main.js'),
    args: [],
    line: /listening on (http:\/\/\S+)\n/,
  },
  fleet: {
    script: join(root, 'dist', 'apps', 'fleet', 'src', 'main.js'),
    args: [],
    line: /^fleet \(distributed mode\) listening on (http:\/\/\S+)$/m,
  },
  // The compose fleet, its volumes removed when it stops (each test file's containers start empty).
  containers: {
    script: join(root, 'scripts', 'containers', 'start.mjs'),
    args: ['--remove-data'],
    line: /^containers \(distributed mode, \w+\) listening on (http:\/\/\S+)$/m,
  },
} as const;

export type ServiceKind = keyof typeof STARTS;

/**
 * Starts the embedded app, the fleet or the compose fleet the way `npm start`, `npm run start:fleet` and `npm run
 * start:containers` do (the compiled `main.js` or the script; the caller builds first) and resolves once it
 * prints its `listening on` line (3 minutes at most for processes, which the fleet starts ten of on two cores; 5
 * for containers). `extraArgs` go to the command.
 */
export function startService(
  kind: ServiceKind,
  env: Record<string, string>,
  extraArgs: readonly string[] = [],
): Promise<ServiceProcess> {
  const start = STARTS[kind];
  const child = spawn(process.execPath, [start.script, ...start.args, ...extraArgs], {
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = start.line;
  const limitMs = kind === 'containers' ? 300_000 : 180_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // The containers' script takes its containers down on SIGTERM; a process has nothing to clean.
      child.kill(kind === 'containers' ? 'SIGTERM' : 'SIGKILL');
      reject(new Error(`${kind} did not start within ${limitMs / 1000} s:\n${output}`));
    }, limitMs);
    const poll = setInterval(() => {
      const match = line.exec(output);
      const file = join(env['DATA_DIR'] ?? '', 'bootstrap.json');
      if (!match || !existsSync(file)) return;
      clearInterval(poll);
      clearTimeout(timer);
      resolve({
        baseUrl: match[1]!,
        pid: child.pid!,
        bootstrap: JSON.parse(readFileSync(file, 'utf8')) as ServiceProcess['bootstrap'],
        output: () => output,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    }, 100);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`${kind} exited with ${code} before listening:\n${output}`));
    });
  });
}
