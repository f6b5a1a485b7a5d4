/**
 * bench/edge: an authenticated request through the whole edge pipeline (key lookup, rate limit, envelope) on
 * the cheapest real endpoint (a model record, `GET /api/v1/models/{model}`), against a bare Fastify server
 * answering the same bytes, measured in the same run; then the same for a probe route served through Nest's
 * router, and a read of the balance.
 *
 * Each server runs in its own process (one core), the load generator (autocannon) in this one.
 *   npm run bench:edge [-- --seconds 5 --rounds 3 --connections 32]
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { BootstrapDemoUseCase } from '@gen/accounts';
import { createLogger, loadConfig } from '@gen/core';
import { createHttpApp, baseUrlOf } from '@gen/platform';
import { seedPglite } from '@gen/testing';
import { pgliteDirIn } from '@gen/persistence';
import autocannon from 'autocannon';
import { median, numberFlag, serverCpuMicros } from '../bench-support';
import Fastify from 'fastify';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedModule } from '../../apps/embedded/src/embedded.module';

/** The smallest authenticated Nest route: everything but the handler is the edge and Nest's router. */
@Controller('api/v1/bench')
class ProbeController {
  @Get('ping')
  ping(): { pong: true } {
    return { pong: true };
  }
}
@Module({ controllers: [ProbeController] })
class ProbeModule {}

interface Ready {
  readonly url: string;
  readonly apiKey?: string;
}

async function serveEdge(): Promise<Ready> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gts-bench-'));
  await seedPglite(pgliteDirIn(dataDir));
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_BURST: '100000000',
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
  const logger = createLogger('silent');
  const root = EmbeddedModule.forRoot(config, logger);
  const app = await createHttpApp(
    { ...root, imports: [...(root.imports ?? []), ProbeModule] },
    config,
    logger,
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = baseUrlOf(app, config);
  const { file } = await app.get(BootstrapDemoUseCase).execute(url);
  process.on(
    'SIGTERM',
    () =>
      void app
        .close()
        .then(() => rmSync(dataDir, { recursive: true, force: true }))
        .finally(() => process.exit(0)),
  );
  return { url, apiKey: file!.apiKey };
}

async function serveBare(body: string): Promise<Ready> {
  const app = Fastify({ logger: false });
  app.get('/api/v1/bench/ping', (_request, reply) => {
    void reply.header('content-type', 'application/json; charset=utf-8').send(body);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.on('SIGTERM', () => void app.close().finally(() => process.exit(0)));
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

function startServer(kind: string, arg = ''): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(__filename, ['--serve', kind, arg], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (ready: Ready) => resolve({ child, ready }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited ${String(code)}`)));
  });
}

async function load(
  server: ChildProcess,
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
): Promise<Figures> {
  const before = await serverCpuMicros(server);
  const result = await autocannon({ url, headers, duration: seconds, connections });
  const cpu = (await serverCpuMicros(server)) - before;
  return {
    rps: result.requests.average,
    cpuPerRequest: cpu / Math.max(1, result.requests.total),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
  };
}

interface Figures {
  readonly rps: number;
  /** Server CPU microseconds per request: steadier than req/s on a shared machine. */
  readonly cpuPerRequest: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
}

interface Target {
  readonly name: string;
  readonly server: ChildProcess;
  readonly url: string;
  readonly headers: Record<string, string>;
}

async function main(): Promise<void> {
  const seconds = numberFlag('seconds', 5);
  const rounds = numberFlag('rounds', 3);
  const connections = numberFlag('connections', 32);

  const edge = await startServer('edge');
  const auth = { authorization: `Bearer ${edge.ready.apiKey!}` };
  const bodyOf = async (path: string) => (await fetch(`${edge.ready.url}${path}`, { headers: auth })).text();
  // The cheapest real endpoint: a model record, from the catalog in memory (a direct Fastify route).
  const model = '/api/v1/models/local%2Fsketch';
  const bareModel = await startServer('bare', await bodyOf(model));
  const bareProbe = await startServer('bare', await bodyOf('/api/v1/bench/ping'));
  const targets: Target[] = [
    {
      name: 'bare  Fastify, the model record bytes',
      server: bareModel.child,
      url: `${bareModel.ready.url}/api/v1/bench/ping`,
      headers: {},
    },
    { name: `edge  GET ${model}`, server: edge.child, url: `${edge.ready.url}${model}`, headers: auth },
    {
      name: 'bare  Fastify, the probe bytes',
      server: bareProbe.child,
      url: `${bareProbe.ready.url}/api/v1/bench/ping`,
      headers: {},
    },
    {
      name: 'edge  GET /api/v1/bench/ping (a Nest route)',
      server: edge.child,
      url: `${edge.ready.url}/api/v1/bench/ping`,
      headers: auth,
    },
    {
      name: 'edge  GET /api/v1/chat/credit (reads balance)',
      server: edge.child,
      url: `${edge.ready.url}/api/v1/chat/credit`,
      headers: auth,
    },
  ];
  for (const t of targets) await load(t.server, t.url, t.headers, 2, connections); // warm-up: JIT, key cache, pools
  // Rounds alternate the targets so that the machine's drift hits each of them alike; medians are reported.
  const runs: Figures[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round += 1) {
    for (const [i, t] of targets.entries())
      runs[i]!.push(await load(t.server, t.url, t.headers, seconds, connections));
  }
  for (const server of [edge, bareModel, bareProbe]) server.child.kill('SIGTERM');

  console.log(
    `bench/edge: ${rounds} rounds x ${seconds}s per target, ${connections} connections, node ${process.version}, medians`,
  );
  console.log(
    'target                                           req/s    p50 ms  p99 ms  non-2xx  CPU µs/req',
  );
  const summary = targets.map((t, i) => {
    const r = runs[i]!;
    const figures = {
      rps: median(r.map((x) => x.rps)),
      p50: median(r.map((x) => x.p50)),
      p99: median(r.map((x) => x.p99)),
      cpu: median(r.map((x) => x.cpuPerRequest)),
    };
    const non2xx = r.reduce((sum, x) => sum + x.non2xx, 0);
    console.log(
      `${t.name.padEnd(46)} ${figures.rps.toFixed(0).padStart(8)} ${figures.p50.toFixed(1).padStart(8)} ${figures.p99.toFixed(1).padStart(7)} ${String(non2xx).padStart(8)} ${figures.cpu.toFixed(1).padStart(11)}`,
    );
    return { ...figures, non2xx };
  });
  const ratio = (edgeAt: number, bareAt: number, label: string, target: string) => {
    const ratios = runs[edgeAt]!.map((r, i) => r.rps / runs[bareAt]![i]!.rps);
    console.log(
      `${label}: ${(median(ratios) * 100).toFixed(1)}% (per round ${ratios.map((x) => `${(x * 100).toFixed(0)}%`).join(', ')}; CPU per request bare / edge ${((summary[bareAt]!.cpu / summary[edgeAt]!.cpu) * 100).toFixed(1)}%)${target}`,
    );
  };
  ratio(1, 0, 'edge / bare Fastify throughput, cheapest real endpoint', '; target: at least 50%');
  ratio(3, 2, 'edge / bare Fastify throughput, Nest probe route', '');
  if (summary.some((r) => r.non2xx > 0)) process.exitCode = 1;
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt >= 0) {
  const kind = process.argv[serveAt + 1];
  process.on('message', () => process.send!(process.cpuUsage()));
  void (kind === 'edge' ? serveEdge() : serveBare(process.argv[serveAt + 2] ?? '')).then((ready) =>
    process.send!(ready),
  );
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
