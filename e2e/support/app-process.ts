import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** The settings `npm run services:up` wrote, as every app reads them from its environment. */
export const SERVICE_SETTINGS = [
  'KAFKA_BROKERS',
  'REDIS_URL',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
] as const;

export function serviceSettings(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of SERVICE_SETTINGS) {
    const value = process.env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** One app of the fleet running as its own process in distributed mode. */
export interface AppProcess {
  readonly name: string;
  readonly baseUrl: string;
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `dist/apps/<app>/src/main.js` and resolves once it prints that it listens (60 s at most). */
export function startAppProcess(app: string, env: Record<string, string>): Promise<AppProcess> {
  const child: ChildProcess = spawn(process.execPath, [join(root, 'dist', 'apps', app, 'src', 'main.js')], {
    env: { PATH: process.env['PATH'] ?? '', MODE: 'distributed', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${app} did not start within 60 s:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)\n/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
      resolve({
        name: app,
        baseUrl: match[1]!,
        output: () => output,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${app} exited with ${code} before listening:\n${output}`));
    });
  });
}
