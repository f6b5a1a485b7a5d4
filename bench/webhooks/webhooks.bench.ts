/**
 * bench/webhooks: task callback deliveries per second to a local receiver that answers 200, and the time from
 * a task's terminal state to the first attempt's arrival (p50/p99). Target on this machine: at least 1,000
 * deliveries/s, p99 first attempt under 250 ms.
 *
 *   npm run bench:webhooks [-- --deliveries 3000 --tasks 200]
 *
 * The embedded app (PostgreSQL) runs in this process; the receiver, being the customer's server, in a process
 * of its own. Throughput is measured on deliveries queued directly (the engine alone: claim, sign, send,
 * record); latency on real tasks with a callBackUrl.
 */
import { BootstrapDemoUseCase } from '@gen/accounts';
import { createLogger, loadConfig, newId } from '@gen/core';
import { createHttpApp } from '@gen/platform';
import { createScratchPostgres } from '@gen/testing';
import { DeliveryRepository } from '@gen/webhooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedModule } from '../../apps/embedded/src/embedded.module';
import { numberFlag } from '../bench-support';

const HOST = '127.0.0.77';

/** What the receiver process has seen since its last reset. */
interface Arrivals {
  readonly count: number;
  readonly lastAt: number;
  /** Arrival time minus the body's `data.completedAt`, in ms, sorted. */
  readonly delays: number[];
}

/** The receiver: answers 200 to every POST on HOST:80 and reports its arrivals over IPC. */
function receive(): void {
  let at: number[] = [];
  let delays: number[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const now = Date.now();
      at.push(now);
      const completedAt = (JSON.parse(body) as { data?: { completedAt?: string } }).data?.completedAt;
      if (completedAt) delays.push(now - Date.parse(completedAt));
      res.end();
    });
  });
  process.on('message', (command: string) => {
    if (command === 'reset') {
      at = [];
      delays = [];
    }
    const arrivals: Arrivals = {
      count: at.length,
      lastAt: at[at.length - 1] ?? 0,
      delays: command === 'delays' ? [...delays].sort((a, b) => a - b) : [],
    };
    process.send!(arrivals);
  });
  server.listen(80, HOST, () => process.send!('ready'));
}

function ask(receiver: ChildProcess, command: 'count' | 'reset' | 'delays'): Promise<Arrivals> {
  return new Promise((resolve) => {
    receiver.once('message', (arrivals: Arrivals) => resolve(arrivals));
    receiver.send(command);
  });
}

async function waitFor(
  receiver: ChildProcess,
  count: number,
  command: 'count' | 'delays',
): Promise<Arrivals> {
  for (;;) {
    const arrivals = await ask(receiver, command === 'delays' ? 'count' : command);
    if (arrivals.count >= count) return command === 'delays' ? ask(receiver, 'delays') : arrivals;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function main(): Promise<void> {
  const deliveries = numberFlag('deliveries', 3000);
  const tasks = numberFlag('tasks', 200);
  const receiver = fork(__filename, ['--receiver'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    receiver.once('message', () => resolve());
    receiver.once('exit', (code) => reject(new Error(`receiver exited ${String(code)}`)));
  });

  const scratch = await createScratchPostgres();
  const dataDir = mkdtempSync(join(tmpdir(), 'gts-bench-webhooks-'));
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: scratch.url,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_BURST: '100000000',
    RATE_LIMIT_PER_MINUTE: '100000000',
    WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
  });
  const logger = createLogger('silent');
  const app = await createHttpApp(EmbeddedModule.forRoot(config, logger), config, logger);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  const { file } = await app.get(BootstrapDemoUseCase).execute(url);
  const admin = { authorization: `Bearer ${file!.adminToken}` };
  await fetch(`${url}/admin/v1/accounts/${file!.accountId}/signing-secret/rotate`, {
    method: 'POST',
    headers: admin,
  });
  try {
    // 1. The delivery engine alone.
    const repository = app.get(DeliveryRepository);
    const record = {
      taskId: 'job_bench',
      model: 'local/sketch',
      state: 'failed',
      errorCode: 'upstream_failed',
      cost: '0',
    };
    const queuedAt = Date.now();
    for (let i = 0; i < deliveries; i += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, deliveries - i) }, (_, j) =>
          repository.enqueue({
            id: newId('whd'),
            taskId: `job_bench_${i + j}`,
            accountId: file!.accountId,
            url: `http://${HOST}/hook`,
            payloadVersion: 2,
            record: { ...record, taskId: `job_bench_${i + j}` },
            now: new Date(),
          }),
        ),
      );
    }
    const enqueued = Date.now();
    const sent = await waitFor(receiver, deliveries, 'count');
    const seconds = (sent.lastAt - queuedAt) / 1000;
    console.log(
      `bench/webhooks: ${deliveries} deliveries queued in ${((enqueued - queuedAt) / 1000).toFixed(2)} s (while sending); all sent ${seconds.toFixed(2)} s after the first was queued: ${(deliveries / seconds).toFixed(0)} deliveries/s`,
    );

    // 2. Terminal state -> first attempt, on real tasks.
    await ask(receiver, 'reset');
    const headers = { authorization: `Bearer ${file!.apiKey}`, 'content-type': 'application/json' };
    for (let i = 0; i < tasks; i += 1) {
      await fetch(`${url}/api/v1/jobs/createTask`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          model: 'local/sketch',
          input: { prompt: 'bench', width: 64, height: 64 },
          callBackUrl: `http://${HOST}/hook`,
        }),
      });
      await new Promise((r) => setTimeout(r, 10));
    }
    const { delays } = await waitFor(receiver, tasks, 'delays');
    const q = (p: number) => delays[Math.min(delays.length - 1, Math.floor(p * delays.length))];
    console.log(
      `terminal state -> first attempt (${tasks} tasks): p50 ${q(0.5)} ms  p99 ${q(0.99)} ms  max ${delays[delays.length - 1]} ms`,
    );
    console.log('targets: >= 1000 deliveries/s; p99 first attempt < 250 ms');
  } finally {
    await app.close();
    receiver.kill();
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--receiver')) {
  receive();
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
