/**
 * bench/fleet: a bounded mixed load (createTask, recordInfo, history, balance) against `npm run start:fleet`,
 * and the same load against `npm start` (embedded, the baseline) in the same run: requests per second, p50 and
 * p99 per route, and errors, with the fleet-to-embedded ratio of each figure.
 *
 *   npm run bench:fleet [-- --seconds 300 --connections 16 --only fleet|embedded]
 *
 * Closed loop: `--connections` clients, each sending its next request when the last one was answered, so the
 * load is bounded by the service's own pace. Route mix per request: createTask 20 % (`local/sketch`, 64x64, run
 * to the end by the runners), recordInfo 40 % (of a task this client created), history 20 %, balance 20 %.
 * The fleet runs against `npm run services:up` (settings from the environment or `.env.services`); both
 * services start from their compiled `main.js` (built first), on fresh data, with rate limits out of the way.
 */
import { Agent, request } from 'node:http';
import { hasFlag, numberFlag } from '../bench-support';
import { startBuiltApp, type BuiltApp } from '../built-app';

type Kind = 'embedded' | 'fleet';
type Route = 'createTask' | 'recordInfo' | 'history' | 'balance';
const ROUTES: readonly Route[] = ['createTask', 'recordInfo', 'history', 'balance'];

type Running = BuiltApp;

/** One of the two, funded, as the bench loads it. */
const start = (kind: Kind): Promise<Running> =>
  startBuiltApp(kind, { credit: '1000000', prefix: 'bench-fleet' });

interface Sample {
  readonly route: Route;
  readonly ms: number;
  readonly ok: boolean;
}

function send(
  agent: Agent,
  base: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((done) => {
    const req = request({ host: base.hostname, port: base.port, method, path, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, text }));
      res.on('error', () => done({ status: 0, text }));
    });
    req.on('error', () => done({ status: 0, text: '' }));
    req.end(body);
  });
}

/** Picks the route of one request: 20 % createTask, 40 % recordInfo, 20 % history, 20 % balance. */
function pick(n: number): Route {
  const slot = n % 10;
  if (slot < 2) return 'createTask';
  if (slot < 6) return 'recordInfo';
  return slot < 8 ? 'history' : 'balance';
}

async function load(target: Running, seconds: number, connections: number): Promise<Sample[]> {
  const base = new URL(target.url);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const headers = { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ model: 'local/sketch', input: { prompt: 'bench', width: 64, height: 64 } });
  const samples: Sample[] = [];
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, client) => {
      const tasks: string[] = [];
      // Each client starts somewhere else in the mix, and with a task to read.
      for (let n = client; Date.now() < until; n += 1) {
        const route = tasks.length === 0 ? 'createTask' : pick(n);
        const started = performance.now();
        let answer: { status: number; text: string };
        switch (route) {
          case 'createTask':
            answer = await send(agent, base, 'POST', '/api/v1/jobs/createTask', headers, body);
            if (answer.status === 202) {
              tasks.push((JSON.parse(answer.text) as { data: { taskId: string } }).data.taskId);
              if (tasks.length > 50) tasks.shift();
            }
            break;
          case 'recordInfo':
            answer = await send(
              agent,
              base,
              'GET',
              `/api/v1/jobs/recordInfo?taskId=${tasks[n % tasks.length]}`,
              headers,
            );
            break;
          case 'history':
            answer = await send(agent, base, 'GET', '/api/v1/jobs?limit=20', headers);
            break;
          case 'balance':
            answer = await send(agent, base, 'GET', '/api/v1/chat/credit', headers);
            break;
        }
        const ok = route === 'createTask' ? answer.status === 202 : answer.status === 200;
        samples.push({ route, ms: performance.now() - started, ok });
      }
    }),
  );
  agent.destroy();
  return samples;
}

interface Figures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  readonly count: number;
}

function figures(samples: readonly Sample[], seconds: number): Figures {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const at = (q: number): number => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? NaN;
  return {
    rps: samples.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    errors: samples.filter((s) => !s.ok).length,
    count: samples.length,
  };
}

const row = (name: string, f: Figures): string =>
  `${name.padEnd(11)} ${f.rps.toFixed(1).padStart(9)} ${f.p50.toFixed(2).padStart(9)} ${f.p99.toFixed(2).padStart(9)} ${String(f.errors).padStart(7)} ${String(f.count).padStart(8)}`;

async function main(): Promise<void> {
  const seconds = numberFlag('seconds', 300);
  const connections = numberFlag('connections', 16);
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  const kinds = (['embedded', 'fleet'] as const).filter((k) => !only || k === only);
  const results = new Map<Kind, Map<Route | 'all', Figures>>();
  for (const kind of kinds) {
    process.stdout.write(`\n${kind}: starting\n`);
    const target = await start(kind);
    try {
      // A short warm-up: JIT, connection pools, prepared statements, Kafka group joins.
      await load(target, Math.min(10, seconds), connections);
      process.stdout.write(`${kind}: ${seconds} s of mixed load, ${connections} connections\n`);
      const samples = await load(target, seconds, connections);
      const byRoute = new Map<Route | 'all', Figures>([['all', figures(samples, seconds)]]);
      for (const route of ROUTES)
        byRoute.set(
          route,
          figures(
            samples.filter((s) => s.route === route),
            seconds,
          ),
        );
      results.set(kind, byRoute);
      process.stdout.write(`route          req/s   p50 ms    p99 ms  errors requests\n`);
      for (const [route, f] of byRoute) process.stdout.write(`${row(route, f)}\n`);
    } finally {
      await target.cleanup();
    }
  }
  const embedded = results.get('embedded');
  const fleet = results.get('fleet');
  if (embedded && fleet && !hasFlag('no-ratio')) {
    process.stdout.write(`\nfleet / embedded (same run, same machine)\nroute        req/s     p50     p99\n`);
    for (const route of ['all', ...ROUTES] as const) {
      const e = embedded.get(route)!;
      const f = fleet.get(route)!;
      process.stdout.write(
        `${route.padEnd(11)} ${(f.rps / e.rps).toFixed(2).padStart(6)}x ${(f.p50 / e.p50).toFixed(2).padStart(6)}x ${(f.p99 / e.p99).toFixed(2).padStart(6)}x\n`,
      );
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
