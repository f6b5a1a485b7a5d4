/**
 * bench/tasks: createTask requests per second with p50/p99 on PostgreSQL and on PGlite, each measured twice
 * against the embedded app: acceptance (validation, key, hold, task row and outbox, and the relay, confirm and
 * runner start that follow; the runner then holds the tasks, as a runner fleet of its own would), and the
 * whole flow in one process (every accepted task also executed, stored and settled on the same two cores);
 * then the round trip create -> succeeded -> recordInfo of `local/sketch` with `delay_ms: 0`.
 * Targets on this machine: >= 1,000 createTask/s with p99 <= 25 ms on PostgreSQL; round trip p50 <= 20 ms.
 *
 *   npm run bench:tasks [-- --seconds 5 --connections 16 --trips 200 --only postgres|pglite --mode accept|full]
 *
 * Each server runs in its own process; autocannon and the round-trip client run here.
 */
import autocannon from 'autocannon';
import { BootstrapDemoUseCase } from '@gen/accounts';
import { createLogger, loadConfig } from '@gen/core';
import { pgliteDirIn } from '@gen/persistence';
import { createHttpApp } from '@gen/platform';
import { createScratchPostgres, seedPglite, type ScratchDatabase } from '@gen/testing';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedModule } from '../../apps/embedded/src/embedded.module';
import { numberFlag } from '../bench-support';

interface Ready {
  readonly url: string;
  readonly apiKey: string;
}

type Mode = 'accept' | 'full';

const BODY = JSON.stringify({ model: 'local/sketch', input: { prompt: 'bench', width: 64, height: 64 } });
/** Acceptance: the load's tasks wait out a 10-minute delay in the runner instead of running. */
const HELD_BODY = JSON.stringify({
  model: 'local/sketch',
  input: { prompt: 'bench', width: 64, height: 64, delay_ms: 600_000 },
});

async function serve(database: string, mode: Mode): Promise<Ready> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gts-bench-tasks-'));
  let scratch: ScratchDatabase | undefined;
  if (database === 'postgres') scratch = await createScratchPostgres();
  else await seedPglite(pgliteDirIn(dataDir));
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_BURST: '100000000',
    RATE_LIMIT_PER_MINUTE: '100000000',
    RUNNER_CONCURRENCY: mode === 'accept' ? '1000' : '64',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  });
  const logger = createLogger('silent');
  const app = await createHttpApp(EmbeddedModule.forRoot(config, logger), config, logger);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  const { file } = await app.get(BootstrapDemoUseCase).execute(url);
  const admin = { authorization: `Bearer ${file!.adminToken}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: Record<string, string> }).data;
  };
  await post(`/admin/v1/accounts/${file!.accountId}/credits`, { amount: '1000000' });
  const key = await post(`/admin/v1/accounts/${file!.accountId}/keys`, { dailyCap: '1000000' });
  process.on('SIGTERM', () => {
    void app
      .close()
      .then(() => scratch?.drop())
      .finally(() => {
        rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
  });
  return { url, apiKey: key['apiKey']! };
}

function startServer(database: string, mode: Mode): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(__filename, ['--serve', database, mode], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (ready: Ready) => resolve({ child, ready }));
    child.once('exit', (code) => reject(new Error(`${database} server exited ${String(code)}`)));
  });
}

async function roundTrips(ready: Ready, trips: number): Promise<number[]> {
  const headers = { authorization: `Bearer ${ready.apiKey}`, 'content-type': 'application/json' };
  const times: number[] = [];
  for (let i = 0; i < trips; i += 1) {
    const started = performance.now();
    const created = await fetch(`${ready.url}/api/v1/jobs/createTask`, {
      method: 'POST',
      headers,
      body: BODY,
    });
    const taskId = ((await created.json()) as { data: { taskId: string } }).data.taskId;
    for (;;) {
      const reply = await fetch(`${ready.url}/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers });
      const state = ((await reply.json()) as { data: { state: string } }).data.state;
      if (state === 'succeeded') break;
      if (state !== 'queued' && state !== 'running') throw new Error(`task ${taskId} ended ${state}`);
      await new Promise((r) => setTimeout(r, 1));
    }
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

async function measure(
  database: string,
  mode: Mode,
  seconds: number,
  connections: number,
  trips: number,
): Promise<void> {
  const { child, ready } = await startServer(database, mode);
  try {
    const headers = { authorization: `Bearer ${ready.apiKey}`, 'content-type': 'application/json' };
    const url = `${ready.url}/api/v1/jobs/createTask`;
    const body = mode === 'accept' ? HELD_BODY : BODY;
    await autocannon({ url, method: 'POST', headers, body, duration: 2, connections }); // warm-up
    await new Promise((r) => setTimeout(r, 2000)); // let the warm-up's work settle
    const load = await autocannon({ url, method: 'POST', headers, body, duration: seconds, connections });
    let trip = '';
    if (mode === 'full') {
      await new Promise((r) => setTimeout(r, 3000)); // let the load's tasks finish before timing round trips
      const times = await roundTrips(ready, trips);
      const pick = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
      trip = `   round trip (${trips}): p50 ${pick(0.5)} ms  p99 ${pick(0.99)} ms`;
    }
    const label = mode === 'accept' ? 'acceptance' : 'whole flow';
    console.log(
      `${database.padEnd(8)} ${label}: ${load.requests.average.toFixed(0)} createTask/s  p50 ${load.latency.p50} ms  p99 ${load.latency.p99} ms  non-2xx ${load.non2xx + load.errors}${trip}`,
    );
    if (load.non2xx + load.errors > 0) process.exitCode = 1;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

async function main(): Promise<void> {
  const seconds = numberFlag('seconds', 5);
  const connections = numberFlag('connections', 16);
  const trips = numberFlag('trips', 200);
  const onlyAt = process.argv.indexOf('--only');
  const databases = onlyAt >= 0 ? [process.argv[onlyAt + 1]!] : ['postgres', 'pglite'];
  const modeAt = process.argv.indexOf('--mode');
  const modes: Mode[] = modeAt >= 0 ? [process.argv[modeAt + 1] as Mode] : ['accept', 'full'];
  console.log(
    `bench/tasks: POST /api/v1/jobs/createTask (local/sketch 64x64), ${seconds}s, ${connections} connections, node ${process.version}`,
  );
  for (const database of databases)
    for (const mode of modes) await measure(database, mode, seconds, connections, trips);
  console.log('targets: >= 1000 createTask/s with p99 <= 25 ms on postgres; round trip p50 <= 20 ms');
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt >= 0) {
  serve(process.argv[serveAt + 1]!, process.argv[serveAt + 2] === 'accept' ? 'accept' : 'full')
    .then((ready) => process.send!(ready))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
