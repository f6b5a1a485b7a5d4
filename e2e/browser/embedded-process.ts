import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

export interface EmbeddedProcess {
  readonly baseUrl: string;
  readonly boot: { accountId: string; apiKey: string; adminToken: string };
  /** An admin API call with the bootstrap admin token; throws unless 200. */
  admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/** The embedded app as `npm start` runs it (built by scripts/test-browser.mjs), on a free port. */
export async function startEmbeddedProcess(
  dataDir: string,
  env: Record<string, string>,
): Promise<EmbeddedProcess> {
  const child: ChildProcess = spawn(process.execPath, [join(root, 'dist/apps/embedded/src/main.js')], {
    cwd: root,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? dataDir,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      RATE_LIMIT_BURST: '2000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/[^\s"]+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`the embedded app exited before listening:\n${out}`)));
  });
  const boot = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as EmbeddedProcess['boot'];
  return {
    baseUrl,
    boot,
    async admin(method, path, body) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${boot.adminToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`admin ${method} ${path}: ${response.status} ${text}`);
      return (JSON.parse(text) as { data: Record<string, unknown> }).data;
    },
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
