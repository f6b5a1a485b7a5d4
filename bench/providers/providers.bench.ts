/**
 * bench/providers: what the streaming chat adapter costs on top of a plain HTTP client, against a fake
 * OpenAI-compatible upstream on this machine (its own process, node:http on 127.0.0.1) that streams a fixed
 * reply: `--deltas` text deltas, a usage chunk and `[DONE]`, each frame in its own write, after `--think-ms`.
 *
 *  1. Non-streamed chat (the caller wants the whole reply) at `--concurrency`, `--seconds` per client and round in
 *     1-second slices taken in turn, warm-up first: the baseline POSTs with fetch and parses the whole SSE body
 *     itself; the adapter's events are aggregated. Req/s, this process's CPU per request (the steadier figure on
 *     a shared machine) and the ratios adapter / baseline, per round and median.
 *  2. Time to first token, `--requests` sequential requests each, the two interleaved: baseline = fetch and the
 *     first body chunk; adapter = the first `text` ChatEvent. p50 / p99 and what the adapter adds.
 *     Target: the adapter adds at most 1 ms at p50.
 *
 *   npm run bench:providers [-- --seconds 5 --rounds 3 --concurrency 32 --requests 2000 --deltas 20 --think-ms 0]
 *
 * Machines differ 2-3x; judge the ratios and the added milliseconds, not the absolute figures.
 */
import {
  DEFAULT_ADAPTERS,
  MemoryCircuitState,
  OpenAiChatAdapter,
  ProviderRegistry,
  ProviderRouter,
  openAiChatBody,
  type ChatAdapter,
  type ChatRequest,
} from '@gen/providers';
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { median, numberFlag, serverCpuMicros } from '../bench-support';

const MODEL = 'bench-model';
const API_KEY = 'sk-bench';
const REQUEST: ChatRequest = {
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Count to twenty in words.' },
  ],
  max_tokens: 64,
};
const PROMPT_TOKENS = 17;

/** The fixed reply's text deltas: what both clients must put back together. */
const deltasOf = (count: number): string[] => Array.from({ length: count }, (_, i) => `word${i} `);

/** The fake upstream's reply as SSE frames, in the shape vLLM and OpenAI send (usage last, then [DONE]). */
function replyFrames(deltas: readonly string[]): string[] {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
    `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: MODEL, choices, ...extra })}\n\n`;
  const delta = (content: string, finish: string | null = null) => [
    { index: 0, delta: { content }, finish_reason: finish },
  ];
  return [
    ...deltas.map((text, i) => chunk(delta(text, i === deltas.length - 1 ? 'stop' : null))),
    chunk([], {
      usage: {
        prompt_tokens: PROMPT_TOKENS,
        completion_tokens: deltas.length,
        total_tokens: PROMPT_TOKENS + deltas.length,
      },
    }),
    'data: [DONE]\n\n',
  ];
}

/**
 * The fake upstream (a child process): parses the JSON request as a real server would, waits the think time,
 * then sends the headers with the first frame and every further frame on a later turn of its event loop, so
 * that the frames of concurrent streams interleave and reach the client as separate reads.
 */
async function serveUpstream(deltas: number, thinkMs: number): Promise<string> {
  const frames = replyFrames(deltasOf(deltas));
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      let body: { stream?: unknown };
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8')) as { stream?: unknown };
      } catch {
        body = {};
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions' || body.stream !== true) {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad request"}');
        return;
      }
      const stream = (): void => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        let next = 0;
        const write = (): void => {
          if (res.destroyed) return;
          res.write(frames[next++]!);
          if (next < frames.length) setImmediate(write);
          else res.end();
        };
        write();
      };
      if (thinkMs > 0) setTimeout(stream, thinkMs);
      else stream();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', () => process.send!(process.cpuUsage()));
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

function startUpstream(deltas: number, thinkMs: number): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = fork(__filename, ['--serve', String(deltas), String(thinkMs)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (baseUrl: string) => resolve({ child, baseUrl }));
    child.once('exit', (code) => reject(new Error(`upstream exited ${String(code)}`)));
  });
}

/** A whole reply as a caller wants it from a non-streamed chat. */
interface Reply {
  text: string;
  outputTokens: number;
}

/** One way of asking the upstream for a reply: the baseline, the adapter, later a router. */
interface Client {
  readonly name: string;
  /** The whole reply, aggregated. */
  whole(): Promise<Reply>;
  /** Milliseconds from the request's start to its first text; the rest of the stream is read too. */
  firstToken(): Promise<number>;
}

/** The baseline: fetch, and the SSE body parsed by hand, with nothing else around it. */
function directClient(baseUrl: string): Client {
  const body = openAiChatBody(REQUEST, MODEL);
  const post = () =>
    fetch(`${baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: `Bearer ${API_KEY}`,
      },
      body: JSON.stringify(body),
    });
  return {
    name: 'baseline: fetch + own SSE parsing',
    async whole() {
      const response = await post();
      if (!response.ok) throw new Error(`upstream answered ${response.status}`);
      const reply: Reply = { text: '', outputTokens: 0 };
      for (const line of (await response.text()).split('\n')) {
        if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
        const chunk = JSON.parse(line.slice(6)) as {
          choices: { delta?: { content?: string } }[];
          usage?: { completion_tokens: number };
        };
        reply.text += chunk.choices[0]?.delta?.content ?? '';
        if (chunk.usage) reply.outputTokens = chunk.usage.completion_tokens;
      }
      return reply;
    },
    async firstToken() {
      const started = performance.now();
      const response = await post();
      const reader = response.body!.getReader();
      const first = await reader.read();
      const elapsed = performance.now() - started;
      if (first.done || !new TextDecoder().decode(first.value).includes('"content":"word0 "'))
        throw new Error('the first chunk did not carry the first delta');
      while (!(await reader.read()).done);
      return elapsed;
    },
  };
}

/**
 * HOOK: any `ChatAdapter`-shaped target ({ chat(request, signal) }) measured exactly as the bare adapter is:
 * the events aggregated for throughput, the first `text` event for time to first token. To benchmark a router
 * with circuit breakers, build it over upstreams at `baseUrl` in `chatTargets` below.
 */
export function chatTargetClient(name: string, target: ChatAdapter): Client {
  return {
    name,
    async whole() {
      const reply: Reply = { text: '', outputTokens: 0 };
      for await (const event of target.chat(REQUEST)) {
        if (event.type === 'text') reply.text += event.delta;
        else if (event.type === 'usage') reply.outputTokens = event.outputTokens;
      }
      return reply;
    },
    async firstToken() {
      const started = performance.now();
      let elapsed: number | undefined;
      for await (const event of target.chat(REQUEST)) {
        if (event.type === 'text' && elapsed === undefined) elapsed = performance.now() - started;
      }
      if (elapsed === undefined) throw new Error(`${name}: no text event`);
      return elapsed;
    },
  };
}

/**
 * The targets compared with the baseline: the bare adapter, and the whole provider path (the router over the
 * registry: binding pick, concurrency slot, closed opossum breaker, retry wrapper) to the same upstream. The
 * difference between the two is what the breaker and the router cost when nothing fails.
 */
function chatTargets(baseUrl: string): { name: string; target: ChatAdapter }[] {
  const config = { baseUrl, apiKey: API_KEY, upstreamModel: MODEL, timeoutMs: 30_000 };
  const binding = {
    adapter: 'openai-compatible',
    upstreamModel: MODEL,
    credentials: ['BENCH_UPSTREAM_KEY'],
    // Room for the bench's concurrency: the limit is not what is measured here.
    settings: { baseUrl, timeoutMs: 30_000, maxConcurrency: 1024 },
  };
  const router = new ProviderRouter({
    routes: { routeFor: (model) => ({ model, modality: 'text', bindings: [binding] }) },
    registry: new ProviderRegistry(DEFAULT_ADAPTERS, {
      credential: (name) => (name === 'BENCH_UPSTREAM_KEY' ? API_KEY : undefined),
    }),
    circuits: new MemoryCircuitState(),
  });
  const never = new AbortController().signal;
  return [
    { name: 'OpenAiChatAdapter.chat(), events aggregated', target: new OpenAiChatAdapter(config) },
    {
      name: 'ProviderRouter.chat() (breaker closed), events aggregated',
      target: {
        readsImage: () => false,
        chat: (request, signal) => router.chat('bench/chat', request, signal ?? never),
      },
    },
  ];
}

interface Load {
  rps: number;
  /** This process's CPU per request: steadier than req/s on a shared machine. */
  clientCpuMicros: number;
  upstreamCpuMicros: number;
  errors: number;
}

/** What `concurrency` callers asking for whole replies, one after the other, got done in one slice of time. */
interface Slice {
  done: number;
  errors: number;
  seconds: number;
  clientCpuMicros: number;
  upstreamCpuMicros: number;
}

async function slice(
  client: Client,
  upstream: ChildProcess,
  expected: Reply,
  seconds: number,
  concurrency: number,
): Promise<Slice> {
  let done = 0;
  let errors = 0;
  const upstreamBefore = await serverCpuMicros(upstream);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        try {
          const reply = await client.whole();
          if (reply.text === expected.text && reply.outputTokens === expected.outputTokens) done += 1;
          else errors += 1;
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    done,
    errors,
    seconds: elapsed,
    clientCpuMicros: cpu.user + cpu.system,
    upstreamCpuMicros: (await serverCpuMicros(upstream)) - upstreamBefore,
  };
}

/**
 * One round: every client gets `seconds` in all, in 1-second slices taken in turn (the order alternating), so
 * that a neighbour's burst on this shared machine hits the clients alike instead of one whole turn.
 */
async function round(
  clients: readonly Client[],
  upstream: ChildProcess,
  expected: Reply,
  seconds: number,
  concurrency: number,
): Promise<Load[]> {
  const totals: Slice[] = clients.map(() => ({
    done: 0,
    errors: 0,
    seconds: 0,
    clientCpuMicros: 0,
    upstreamCpuMicros: 0,
  }));
  for (let i = 0; i < Math.ceil(seconds); i += 1) {
    const order = clients.map((_, k) => (i % 2 === 0 ? k : clients.length - 1 - k));
    for (const k of order) {
      const part = await slice(clients[k]!, upstream, expected, Math.min(1, seconds - i), concurrency);
      const total = totals[k]!;
      total.done += part.done;
      total.errors += part.errors;
      total.seconds += part.seconds;
      total.clientCpuMicros += part.clientCpuMicros;
      total.upstreamCpuMicros += part.upstreamCpuMicros;
    }
  }
  return totals.map((t) => ({
    rps: t.done / t.seconds,
    clientCpuMicros: t.clientCpuMicros / Math.max(1, t.done),
    upstreamCpuMicros: t.upstreamCpuMicros / Math.max(1, t.done),
    errors: t.errors,
  }));
}

/** Sequential first-token times of every client, interleaved (the order alternating) so drift hits all alike. */
async function firstTokens(clients: readonly Client[], requests: number): Promise<number[][]> {
  const times: number[][] = clients.map(() => []);
  for (let i = 0; i < requests; i += 1) {
    const order = i % 2 === 0 ? clients.map((_, k) => k) : clients.map((_, k) => clients.length - 1 - k);
    for (const k of order) times[k]!.push(await clients[k]!.firstToken());
  }
  return times.map((t) => t.sort((a, b) => a - b));
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main(): Promise<void> {
  const seconds = numberFlag('seconds', 5);
  const rounds = numberFlag('rounds', 3);
  const concurrency = numberFlag('concurrency', 32);
  const requests = numberFlag('requests', 2000);
  const deltas = numberFlag('deltas', 20);
  const thinkMs = numberFlag('think-ms', 0);

  const upstream = await startUpstream(deltas, thinkMs);
  const expected: Reply = { text: deltasOf(deltas).join(''), outputTokens: deltas };
  const clients = [
    directClient(upstream.baseUrl),
    ...chatTargets(upstream.baseUrl).map(({ name, target }) => chatTargetClient(name, target)),
  ];
  console.log(
    `bench/providers: fake OpenAI-compatible upstream (own process), ${deltas} deltas + usage + [DONE], think ${thinkMs} ms, node ${process.version}`,
  );
  let failed = false;
  try {
    // 1. Non-streamed chat throughput.
    await round(clients, upstream.child, expected, 2, concurrency); // warm-up
    const runs: Load[][] = clients.map(() => []);
    for (let r = 0; r < rounds; r += 1) {
      const loads = await round(clients, upstream.child, expected, seconds, concurrency);
      loads.forEach((figures, k) => runs[k]!.push(figures));
    }
    console.log(
      `\nnon-streamed chat, ${concurrency} concurrent callers, ${rounds} rounds x ${seconds}s per client (1 s slices in turn), medians`,
    );
    console.log(
      'client                                          req/s   client CPU µs/req  upstream CPU µs/req  errors',
    );
    for (const [k, client] of clients.entries()) {
      const r = runs[k]!;
      const errors = r.reduce((sum, x) => sum + x.errors, 0);
      failed ||= errors > 0;
      console.log(
        `${client.name.padEnd(44)} ${median(r.map((x) => x.rps))
          .toFixed(0)
          .padStart(7)} ${median(r.map((x) => x.clientCpuMicros))
          .toFixed(1)
          .padStart(19)} ${median(r.map((x) => x.upstreamCpuMicros))
          .toFixed(1)
          .padStart(20)} ${String(errors).padStart(7)}`,
      );
    }
    for (const [k, client] of clients.entries()) {
      if (k === 0) continue;
      const ratios = runs[k]!.map((x, round) => x.rps / runs[0]![round]!.rps);
      const cpu =
        median(runs[k]!.map((x) => x.clientCpuMicros)) / median(runs[0]!.map((x) => x.clientCpuMicros));
      console.log(
        `${client.name} / baseline req/s: ${(median(ratios) * 100).toFixed(1)}% (per round ${ratios.map((x) => `${(x * 100).toFixed(0)}%`).join(', ')}); client CPU per request x${cpu.toFixed(2)}`,
      );
    }

    // 2. Time to first token.
    await firstTokens(clients, Math.min(200, requests)); // warm-up
    const times = await firstTokens(clients, requests);
    console.log(`\ntime to first token, ${requests} sequential requests per client, interleaved`);
    console.log('client                                       p50 ms   p99 ms');
    for (const [k, client] of clients.entries())
      console.log(
        `${client.name.padEnd(44)} ${quantile(times[k]!, 0.5).toFixed(3).padStart(7)} ${quantile(times[k]!, 0.99).toFixed(3).padStart(8)}`,
      );
    for (const [k, client] of clients.entries()) {
      if (k === 0) continue;
      const added = (q: number) => quantile(times[k]!, q) - quantile(times[0]!, q);
      const met = added(0.5) <= 1 ? 'met' : 'NOT met';
      console.log(
        `${client.name} adds ${added(0.5).toFixed(3)} ms at p50, ${added(0.99).toFixed(3)} ms at p99; target: at most 1 ms at p50: ${met}`,
      );
    }
  } catch (error) {
    failed = true;
    console.error(error);
  } finally {
    upstream.child.kill('SIGTERM');
  }
  if (failed) process.exitCode = 1;
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt >= 0) {
  serveUpstream(Number(process.argv[serveAt + 1]), Number(process.argv[serveAt + 2]))
    .then((baseUrl) => process.send!(baseUrl))
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
