import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const GRACE_MS = 5000;

interface NpmStart {
  readonly npm: ChildProcess;
  readonly baseUrl: string;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

/** `npm start` as a user runs it, in its own process group (as a terminal would), up to its listening line. */
function npmStart(dataDir: string): Promise<NpmStart> {
  const npm = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? tmpdir(),
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  npm.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    npm.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)\n/.exec(out);
      if (match) resolve({ npm, baseUrl: match[1]!, output: () => out, exited });
    });
    void exited.then((code) =>
      reject(new Error(`npm start exited ${String(code)} before listening:\n${out}`)),
    );
  });
}

/** The direct children of a process (Linux). */
function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Resolves true when nothing accepts connections on the port any more. */
const portClosed = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect({ host: hostname, port: Number(port) });
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });

const count = (text: string, needle: string): number => text.split(needle).length - 1;

describe('npm start: one process that builds, serves, and stops on the signal npm receives', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'gts-npm-start-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  /** Starts, checks the process tree and health, sends `signal` as `send` says, and checks the stop. */
  async function stopsOn(send: (npmPid: number) => void): Promise<string> {
    const started = await npmStart(dataDir);
    const npmPid = started.npm.pid!;
    let server: number | undefined;
    try {
      const children = childrenOf(npmPid);
      expect(children).toHaveLength(1); // the server itself, not a shell holding it
      server = children[0]!;
      expect(readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0')).toContain('scripts/start.mjs');
      expect(childrenOf(server)).toEqual([]); // the build left nothing running
      expect((await fetch(`${started.baseUrl}/healthz`)).status).toBe(200);

      const sent = Date.now();
      send(npmPid);
      const code = await started.exited;
      expect(Date.now() - sent).toBeLessThan(GRACE_MS);
      expect(code).toBe(0);
      expect(alive(server)).toBe(false);
      expect(await portClosed(started.baseUrl)).toBe(true);
      return started.output();
    } finally {
      if (alive(npmPid) || (server !== undefined && alive(server))) {
        try {
          process.kill(-npmPid, 'SIGKILL'); // the whole group, so nothing outlives a failed test
        } catch {
          // already gone
        }
      }
    }
  }

  it('drains and exits within SHUTDOWN_GRACE_MS on SIGTERM to the npm process', async () => {
    const output = await stopsOn((pid) => process.kill(pid, 'SIGTERM'));
    expect(count(output, '"signal":"SIGTERM","msg":"draining"')).toBe(1);
    expect(count(output, '"msg":"stopped"')).toBe(1);
  }, 90_000);

  it('stops once, cleanly, on Ctrl-C (SIGINT to the whole process group: npm and the server)', async () => {
    const output = await stopsOn((pid) => process.kill(-pid, 'SIGINT'));
    expect(count(output, '"msg":"draining"')).toBe(1);
    expect(output).not.toContain('second signal');
    expect(count(output, '"msg":"stopped"')).toBe(1);
  }, 90_000);
});
