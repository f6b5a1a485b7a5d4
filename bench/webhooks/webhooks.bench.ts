/**
 * bench/webhooks: task callback deliveries per second to a local receiver that answers 200, and the time from
 * a task's terminal state to the first attempt's arrival (p50/p99). Target on this machine: at least 1,000
 * deliveries/s, p99 first attempt under 250 ms.
 *
 *   npm run bench:webhooks [-- --deliveries 3000 --tasks 200]
 *
 * The embedded app (PostgreSQL) and the receiver run in this process. Throughput is measured on deliveries
 * queued directly (the engine alone: claim, sign, send, record); latency on real tasks with a callBackUrl.
 */
import { BootstrapDemoUseCase } from '@gen/accounts';
import { createLogger, loadConfig, newId } from '@gen/core';
import { createHttpApp } from '@gen/platform';
import { createScratchPostgres } from '@gen/testing';
import { DeliveryRepository } from '@gen/webhooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedModule } from '../../apps/embedded/src/embedded.module';
import { numberFlag } from '../bench-support';

async function main(): Promise<void> {
  const deliveries = numberFlag('deliveries', 3000);
  const tasks = numberFlag('tasks', 200);
  const arrivals: { at: number; body: string }[] = [];
  const host = '127.0.0.77';
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      arrivals.push({ at: Date.now(), body });
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(80, host, resolve));

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
            url: `http://${host}/hook`,
            payloadVersion: 2,
            record: { ...record, taskId: `job_bench_${i + j}` },
            now: new Date(),
          }),
        ),
      );
    }
    const enqueued = Date.now();
    while (arrivals.length < deliveries) await new Promise((r) => setTimeout(r, 20));
    const seconds = (arrivals[arrivals.length - 1]!.at - queuedAt) / 1000;
    console.log(
      `bench/webhooks: ${deliveries} deliveries queued in ${((enqueued - queuedAt) / 1000).toFixed(2)} s (while sending); all sent ${seconds.toFixed(2)} s after the first was queued: ${(deliveries / seconds).toFixed(0)} deliveries/s`,
    );

    // 2. Terminal state -> first attempt, on real tasks.
    arrivals.length = 0;
    const headers = { authorization: `Bearer ${file!.apiKey}`, 'content-type': 'application/json' };
    for (let i = 0; i < tasks; i += 1) {
      await fetch(`${url}/api/v1/jobs/createTask`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          model: 'local/sketch',
          input: { prompt: 'bench', width: 64, height: 64 },
          callBackUrl: `http://${host}/hook`,
        }),
      });
      await new Promise((r) => setTimeout(r, 10));
    }
    while (arrivals.length < tasks) await new Promise((r) => setTimeout(r, 20));
    const delays = arrivals
      .map(
        (a) => a.at - Date.parse((JSON.parse(a.body) as { data: { completedAt: string } }).data.completedAt),
      )
      .sort((a, b) => a - b);
    const q = (p: number) => delays[Math.min(delays.length - 1, Math.floor(p * delays.length))];
    console.log(
      `terminal state -> first attempt (${tasks} tasks): p50 ${q(0.5)} ms  p99 ${q(0.99)} ms  max ${delays[delays.length - 1]} ms`,
    );
    console.log('targets: >= 1000 deliveries/s; p99 first attempt < 250 ms');
  } finally {
    await app.close();
    receiver.close();
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
