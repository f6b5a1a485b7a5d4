import { parseUsd } from '@gen/core';
import { createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAppProcess, type AppProcess } from '../support/app-process';

const root = join(__dirname, '..', '..');
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TASKS = 150;
const CONCURRENCY = 50;
const DELAY_MS = 2000;

/**
 * Accepted work survives a crash: `npm start`'s process (embedded mode) is killed with SIGKILL while 150
 * tasks are queued or running, then started again on the same data. Every task must end, succeeded, within a
 * minute of the restart, and the account must be charged exactly once for each: nothing held, nothing lost.
 */
describe.each(['pglite', 'postgres'] as const)('kill -9 under load (embedded mode on %s)', (kind) => {
  let dataDir: string;
  let database: ScratchDatabase | undefined;
  let env: Record<string, string>;
  let app: AppProcess | undefined;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    dataDir = mkdtempSync(join(tmpdir(), 'gts-crash-'));
    if (kind === 'postgres') database = await createScratchPostgres();
    env = {
      MODE: 'embedded',
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
      RUNNER_CONCURRENCY: String(CONCURRENCY),
      RATE_LIMIT_BURST: '10000',
      RATE_LIMIT_PER_MINUTE: '100000',
      LOG_LEVEL: process.env['E2E_LOG_LEVEL'] ?? 'warn',
    };
  });

  afterAll(async () => {
    await app?.stop('SIGKILL');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs every accepted task after a restart and settles each exactly once', async () => {
    app = await startAppProcess('embedded', env);
    const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      apiKey: string;
    };
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const call = async (base: string, path: string, body?: unknown): Promise<Json> => {
      const response = await fetch(`${base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as Json;
    };
    const before = (await call(app.baseUrl, '/api/v1/chat/credit')).data;

    const ids: string[] = [];
    let cost = '';
    for (let i = 0; i < TASKS; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, TASKS - i) }, () =>
          call(app!.baseUrl, '/api/v1/jobs/createTask', {
            model: 'local/sketch',
            input: { prompt: 'survives', width: 64, height: 64, delay_ms: DELAY_MS },
          }),
        ),
      );
      for (const answer of batch) {
        expect(answer.code).toBe(200);
        ids.push(answer.data.taskId);
        cost = answer.data.estimatedCost;
      }
    }
    // Some run, most wait: then the process dies without a chance to clean up.
    await new Promise((r) => setTimeout(r, 500));
    const states = await Promise.all(
      ids.map(async (id) => (await call(app!.baseUrl, `/api/v1/jobs/recordInfo?taskId=${id}`)).data.state),
    );
    expect(states.filter((s) => s === 'succeeded').length).toBeLessThan(TASKS / 2);
    expect(await app.stop('SIGKILL')).toBeNull();

    app = await startAppProcess('embedded', env);
    const restarted = Date.now();
    const base = app.baseUrl;
    let records: Json[] = [];
    for (;;) {
      records = await Promise.all(
        ids.map(async (id) => (await call(base, `/api/v1/jobs/recordInfo?taskId=${id}`)).data),
      );
      if (records.every((r) => r.state === 'succeeded' && r.settled === true)) break;
      if (Date.now() - restarted > 60_000) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const recovery = Date.now() - restarted;
    process.stdout.write(
      `crash recovery on ${kind}: ${TASKS} tasks ended, settled, ${recovery} ms after the restart\n`,
    );
    expect(records.filter((r) => r.state !== 'succeeded').map((r) => `${r.taskId} ${r.state}`)).toEqual([]);
    expect(records.filter((r) => r.settled !== true)).toEqual([]);
    expect(recovery).toBeLessThan(60_000);
    // Charged exactly once each: the balance fell by the sum of the costs and nothing is held.
    const after = (await call(base, '/api/v1/chat/credit')).data;
    expect(records.every((r) => r.cost === cost)).toBe(true);
    expect(parseUsd(after.held)!).toBe(0n);
    expect(parseUsd(before.available)! - parseUsd(after.available)!).toBe(parseUsd(cost)! * BigInt(TASKS));
  });
});
