import { Agent, request as httpRequest } from 'node:http';

/** One place that answers `POST /v1/chat/completions`: the fake itself, Portkey, or this service. */
export interface ChatTarget {
  readonly name: string;
  /** The whole URL of its chat completions route. */
  readonly url: string;
  readonly model: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** What one request came to: its total time, and for a stream the time to its first token. */
export interface Outcome {
  readonly ok: boolean;
  readonly totalMs: number;
  /** Streams only: from the request's start to the first bytes carrying the first token. */
  readonly firstTokenMs?: number;
  /** Why it was not ok (status and the start of the body), for the first error printed. */
  readonly problem?: string;
}

const MESSAGES = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Count to twenty in words.' },
];

/** The reply's text from a non-streamed chat completion, or from an SSE stream's `delta.content` parts. */
function replyText(raw: string, stream: boolean): string | undefined {
  if (!stream) {
    const body = JSON.parse(raw) as { choices?: { message?: { content?: string } }[] };
    return body.choices?.[0]?.message?.content;
  }
  let text = '';
  let done = false;
  for (const line of raw.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    if (line === 'data: [DONE]') {
      done = true;
      continue;
    }
    const chunk = JSON.parse(line.slice(6)) as { choices?: { delta?: { content?: string | null } }[] };
    text += chunk.choices?.[0]?.delta?.content ?? '';
  }
  return done ? text : undefined;
}

/**
 * One chat completion over a keep-alive agent (node:http: the cheapest client, so that it takes as little of the
 * two cores as possible from the servers measured). The reply is checked against `expected`: a wrong or
 * truncated answer is an error, never a fast success. The first token is the first read whose bytes so far
 * hold `firstWord` (this service sends a role-only chunk first; that is not a token).
 */
export function chat(
  target: ChatTarget,
  agent: Agent,
  stream: boolean,
  expected: string,
  firstWord: string,
): Promise<Outcome> {
  const body = JSON.stringify({
    model: target.model,
    messages: MESSAGES,
    max_tokens: 64,
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  });
  const started = performance.now();
  return new Promise((resolve) => {
    const req = httpRequest(
      target.url,
      {
        method: 'POST',
        agent,
        headers: {
          ...target.headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let raw = '';
        let firstTokenMs: number | undefined;
        res.setEncoding('utf8');
        res.on('data', (part: string) => {
          raw += part;
          if (stream && firstTokenMs === undefined && raw.includes(firstWord))
            firstTokenMs = performance.now() - started;
        });
        res.on('end', () => {
          const totalMs = performance.now() - started;
          let text: string | undefined;
          try {
            text = res.statusCode === 200 ? replyText(raw, stream) : undefined;
          } catch {
            text = undefined;
          }
          const ok = text === expected && (!stream || firstTokenMs !== undefined);
          resolve({
            ok,
            totalMs,
            ...(firstTokenMs !== undefined ? { firstTokenMs } : {}),
            ...(ok ? {} : { problem: `${String(res.statusCode)} ${raw.slice(0, 300)}` }),
          });
        });
        res.on('error', (error) => resolve({ ok: false, totalMs: 0, problem: String(error) }));
      },
    );
    req.on('error', (error) => resolve({ ok: false, totalMs: 0, problem: String(error) }));
    req.end(body);
  });
}

/** What `concurrency` callers, each sending its next request when the last is answered, got in `seconds`. */
export interface Load {
  readonly done: number;
  readonly errors: number;
  readonly seconds: number;
  readonly totals: number[];
  readonly firstTokens: number[];
  readonly problem?: string;
}

/** Diagnostics only: each caller waits this long between its requests (BENCH_PAUSE_MS, default 0). */
const PAUSE_MS = Number(process.env['BENCH_PAUSE_MS'] ?? 0);

export async function load(
  target: ChatTarget,
  stream: boolean,
  concurrency: number,
  seconds: number,
  expected: string,
  firstWord: string,
): Promise<Load> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const totals: number[] = [];
  const firstTokens: number[] = [];
  let errors = 0;
  let problem: string | undefined;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const outcome = await chat(target, agent, stream, expected, firstWord);
        if (!outcome.ok) {
          errors += 1;
          problem ??= outcome.problem;
          continue;
        }
        totals.push(outcome.totalMs);
        if (outcome.firstTokenMs !== undefined) firstTokens.push(outcome.firstTokenMs);
        if (PAUSE_MS > 0) await new Promise((r) => setTimeout(r, PAUSE_MS));
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return {
    done: totals.length,
    errors,
    seconds: elapsed,
    totals,
    firstTokens,
    ...(problem !== undefined ? { problem } : {}),
  };
}

/** The q-quantile of a sorted list. */
export const quantile = (sorted: readonly number[], q: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
