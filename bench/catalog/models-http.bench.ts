/**
 * bench/catalog, HTTP half: GET /api/v1/models?includeSchema=1 requests per second in embedded mode (the
 * whole app, authenticated, priced for the caller, with every input schema). Target: at least 5,000/s.
 *
 *   npm run bench:catalog [-- --seconds 5 --rounds 3 --connections 32]
 *
 * The server is the embedded app of bench/edge (`--serve edge`), in its own process; autocannon runs here.
 */
import autocannon from 'autocannon';
import { median, numberFlag, serverCpuMicros } from '../bench-support';
import { fork } from 'node:child_process';
import { join } from 'node:path';

const TARGET_RPS = 5000;

interface Ready {
  readonly url: string;
  readonly apiKey: string;
}

async function main(): Promise<void> {
  const seconds = numberFlag('seconds', 5);
  const rounds = numberFlag('rounds', 3);
  const connections = numberFlag('connections', 32);

  const server = fork(join(__dirname, '..', 'edge', 'edge.bench.js'), ['--serve', 'edge'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve) => server.once('message', resolve));
  const url = `${ready.url}/api/v1/models?includeSchema=1`;
  const headers = { authorization: `Bearer ${ready.apiKey}` };
  const probe = await fetch(url, { headers });
  const bytes = (await probe.arrayBuffer()).byteLength;
  if (probe.status !== 200) throw new Error(`GET ${url} answered ${probe.status}`);

  await autocannon({ url, headers, duration: 2, connections }); // warm-up
  const results: { rps: number; p50: number; p99: number; cpu: number; bad: number }[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const before = await serverCpuMicros(server);
    const r = await autocannon({ url, headers, duration: seconds, connections });
    const cpu = (await serverCpuMicros(server)) - before;
    results.push({
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      cpu: cpu / Math.max(1, r.requests.total),
      bad: r.non2xx + r.errors,
    });
  }
  server.kill('SIGTERM');

  const rps = median(results.map((r) => r.rps));
  console.log(
    `bench/catalog http: GET /api/v1/models?includeSchema=1 (${bytes} bytes), ${rounds} rounds x ${seconds}s, ${connections} connections, node ${process.version}, medians`,
  );
  console.log(
    `req/s ${rps.toFixed(0)}  p50 ${median(results.map((r) => r.p50))} ms  p99 ${median(results.map((r) => r.p99))} ms  server CPU ${median(results.map((r) => r.cpu)).toFixed(0)} µs/req  non-2xx ${results.reduce((s, r) => s + r.bad, 0)}`,
  );
  console.log(`target: at least ${TARGET_RPS} requests/s`);
  if (results.some((r) => r.bad > 0)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
