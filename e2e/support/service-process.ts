import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** A running `npm start` or `npm run start:fleet`: its public URL, its bootstrap and how to stop it. */
export interface ServiceProcess {
  readonly baseUrl: string;
  readonly pid: number;
  readonly bootstrap: { baseUrl: string; accountId: string; apiKey: string; adminToken: string };
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the embedded app or the fleet the way `npm start` and `npm run start:fleet` do (their compiled
 * `main.js`; the caller builds first) and resolves once it prints its `listening on` line (3 minutes at most:
 * the fleet starts ten processes on two cores).
 */
export function startService(
  kind: 'embedded' | 'fleet',
  env: Record<string, string>,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [join(root, 'dist', 'apps', kind, 'src', 'main.js')], {
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line =
    kind === 'fleet'
      ? /^fleet \(distributed mode\) listening on (http:\/\/\S+)$/m
      : /listening on (http:\/\/\S+)\n/;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${kind} did not start within 180 s:\n${output}`));
    }, 180_000);
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
