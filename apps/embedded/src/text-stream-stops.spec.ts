import { parseUsd } from '@gen/core';
import {
  createScratchPostgres,
  DATABASE_KINDS,
  type ScratchDatabase,
  sseBlocks,
  sseJson,
  type SseBlock,
} from '@gen/testing';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Json = Record<string, unknown>;

const root = join(__dirname, '..', '..', '..');
const main = join(root, 'dist', 'apps', 'embedded', 'src', 'main.js');

const GRACE_MS = 6000;
const LEASE_MS = 3000;
/** Streams open (200, a keep-alive) this soon, so the client has its task id before the process goes. */
const KEEPALIVE_MS = 250;

jest.setTimeout(120_000);

interface Started {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly exited: Promise<number | null>;
  readonly output: () => string;
}

/** `npm start`'s program as its own process, up to its listening line. */
function start(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)\n/.exec(out);
      if (match) resolve({ child, baseUrl: match[1]!, exited, output: () => out });
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    void exited.then((code) => reject(new Error(`exited ${String(code)} before listening:\n${out}`)));
  });
}

/** Each way to stream a text answer: how it is asked, and how a normal end of its stream looks. */
interface Protocol {
  readonly name: string;
  readonly path: string;
  readonly body: (content: string) => unknown;
  /** Whether the body ends as the protocol ends a complete answer. */
  readonly endsNormally: (body: string) => boolean;
}

const MODEL = 'local/echo/chat';

/** How a protocol streaming Server-Sent Events ends a complete answer, as a check of its events. */
const sse =
  (check: (events: SseBlock[]) => boolean) =>
  (body: string): boolean =>
    check(sseBlocks(body));

const PROTOCOLS: Protocol[] = [
  {
    name: 'native',
    path: '/api/v1/jobs/stream',
    body: (content) => ({ model: MODEL, input: { messages: [{ role: 'user', content }] } }),
    endsNormally: sse(
      (events) => events.at(-1)?.data === '[DONE]' && sseJson(events.at(-2))['type'] === 'finish',
    ),
  },
  {
    name: 'chat completions',
    path: '/v1/chat/completions',
    body: (content) => ({
      model: MODEL,
      messages: [{ role: 'user', content }],
      stream: true,
      stream_options: { include_usage: true },
    }),
    endsNormally: sse(
      (events) =>
        events.at(-1)?.data === '[DONE]' &&
        events.some((e) => e.data.includes('"finish_reason":"stop"')) &&
        sseJson(events.at(-2))['usage'] !== undefined,
    ),
  },
  {
    name: 'responses',
    path: '/v1/responses',
    body: (content) => ({ model: MODEL, input: content, stream: true }),
    endsNormally: sse(
      (events) =>
        events.at(-1)?.event === 'response.completed' &&
        (sseJson(events.at(-1))['response'] as Json)['status'] === 'completed',
    ),
  },
  {
    name: 'messages',
    path: '/v1/messages',
    body: (content) => ({
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: 'user', content }],
      stream: true,
    }),
    endsNormally: sse(
      (events) => events.at(-1)?.event === 'message_stop' && events.at(-2)?.event === 'message_delta',
    ),
  },
  {
    name: 'generate content',
    path: `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
    body: (content) => ({ contents: [{ role: 'user', parts: [{ text: content }] }] }),
    endsNormally: sse(
      (events) =>
        (sseJson(events.at(-1))['candidates'] as { finishReason?: string }[] | undefined)?.[0]
          ?.finishReason === 'STOP',
    ),
  },
];

/** A whole (non-streamed) answer: its JSON body once the model finished. */
const WHOLE: Protocol = {
  name: 'chat completions, whole',
  path: '/v1/chat/completions',
  body: (content) => ({ model: MODEL, messages: [{ role: 'user', content }] }),
  endsNormally: (body) =>
    (JSON.parse(body) as { choices: { finish_reason: string }[] }).choices[0]?.finish_reason === 'stop',
};

/** A stream as its client sees it: the task id once the headers came, then the whole body. */
interface Opened {
  readonly protocol: Protocol;
  readonly status: number;
  readonly taskId: string;
  readonly body: Promise<string>;
}

async function open(
  baseUrl: string,
  apiKey: string,
  protocol: Protocol,
  content: string,
  idempotencyKey?: string,
): Promise<Opened> {
  const response = await fetch(`${baseUrl}${protocol.path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${apiKey}`,
      'content-type': 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: JSON.stringify(protocol.body(content)),
  });
  // A connection the process dropped (kill -9) ends the body with an error: what arrived is what counts.
  const body = (async () => {
    const decoder = new TextDecoder();
    let text = '';
    try {
      for await (const chunk of response.body! as unknown as AsyncIterable<Uint8Array>)
        text += decoder.decode(chunk, { stream: true });
    } catch {
      // cut off
    }
    return text + decoder.decode();
  })();
  return { protocol, status: response.status, taskId: response.headers.get('x-service-task-id') ?? '', body };
}

/**
 * Text answers streamed when the process stops, on each database: SIGTERM lets every open answer finish, ends
 * its stream as a complete one ends, and settles it by its usage before the process exits (an answer still
 * running near the end of SHUTDOWN_GRACE_MS is cut: with nothing delivered it fails, uncharged); kill -9 leaves
 * every answer's stream lease to lapse, after which the restarted process ends each task (failed,
 * `service_interrupted`, hold released) and its Idempotency-Key works again. After each, nothing is held and the
 * balance fell by exactly the settled costs.
 */
describe.each(DATABASE_KINDS)('open text answers when the process stops (embedded, %s)', (kind) => {
  let dataDir: string;
  let scratch: ScratchDatabase | undefined;
  let env: Record<string, string>;
  let apiKey: string;
  let running: Started | undefined;
  /** Every task a test accepted, for the money check. */
  const accepted: string[] = [];

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    dataDir = mkdtempSync(join(tmpdir(), 'gts-stops-'));
    scratch = kind === 'postgres' ? await createScratchPostgres() : undefined;
    env = {
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      TEXT_STREAM_LEASE_MS: String(LEASE_MS),
      TEXT_STREAM_KEEPALIVE_MS: String(KEEPALIVE_MS),
      RATE_LIMIT_BURST: '1000',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    };
    running = await start(env);
    apiKey = (JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as { apiKey: string }).apiKey;
  });

  afterAll(async () => {
    running?.child.kill('SIGKILL');
    await running?.exited;
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = async (path: string): Promise<Json> => {
    const response = await fetch(`${running!.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    return ((await response.json()) as { data: Json }).data;
  };
  const record = (taskId: string) => get(`/api/v1/jobs/recordInfo?taskId=${taskId}`);

  /** Reads the tasks until each is settled, or `timeoutMs` passed; the records as they were last read. */
  async function settled(taskIds: readonly string[], timeoutMs: number): Promise<Json[]> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const records = await Promise.all(taskIds.map(record));
      if (records.every((r) => r['settled'] === true) || Date.now() > until) return records;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The money invariant through the API: nothing held, and the wallet fell by exactly the settled costs. */
  async function moneyBalances(): Promise<void> {
    const records = await Promise.all(accepted.map(record));
    expect(records.filter((r) => r['settled'] !== true).map((r) => r['taskId'])).toEqual([]);
    const spent = records.reduce((sum, r) => sum + parseUsd(r['cost'] as string)!, 0n);
    const credit = await get('/api/v1/chat/credit');
    expect(credit['held']).toBe('0');
    expect(parseUsd('25')! - parseUsd(credit['available'] as string)!).toBe(spent);
    for (const r of records) {
      // Settled by usage when it succeeded (never above the hold), released when it failed.
      if (r['state'] === 'succeeded') {
        expect(parseUsd(r['cost'] as string)!).toBeGreaterThan(0n);
        expect(parseUsd(r['cost'] as string)!).toBeLessThanOrEqual(parseUsd(r['estimatedCost'] as string)!);
      } else expect(r).toMatchObject({ state: 'failed', cost: '0' });
    }
  }

  it('SIGTERM: every open answer is finished, ends as a complete stream, and is settled by its usage', async () => {
    const streams = await Promise.all([
      ...[...PROTOCOLS, WHOLE].map((p) =>
        open(running!.baseUrl, apiKey, p, `drain ${p.name} [[delay_ms:1500]]`),
      ),
      // Still thinking near the end of the grace: cut with nothing delivered.
      open(running!.baseUrl, apiKey, PROTOCOLS[1]!, 'never answered [[delay_ms:600000]]'),
    ]);
    for (const s of streams) expect([s.protocol.name, s.status]).toEqual([s.protocol.name, 200]);
    accepted.push(...streams.map((s) => s.taskId));
    const sent = Date.now();
    running!.child.kill('SIGTERM');
    const bodies = await Promise.all(streams.map((s) => s.body));
    expect(await running!.exited).toBe(0);
    const stopMs = Date.now() - sent;
    expect(stopMs).toBeLessThan(GRACE_MS);
    for (const [i, s] of streams.slice(0, -1).entries()) {
      expect([s.protocol.name, s.protocol.endsNormally(bodies[i]!)]).toEqual([s.protocol.name, true]);
      expect(bodies[i]).toContain('drain');
    }
    // The cut one: an error in its stream (it had opened with a keep-alive), never a [DONE].
    const cut = sseBlocks(bodies.at(-1)!);
    expect(cut.at(-1)!.data).toContain('"error"');
    expect(bodies.at(-1)).not.toContain('[DONE]');

    running = await start(env);
    const records = await settled(
      streams.map((s) => s.taskId),
      10_000,
    );
    for (const [i, r] of records.slice(0, -1).entries()) {
      expect([streams[i]!.protocol.name, r['state'], r['settled']]).toEqual([
        streams[i]!.protocol.name,
        'succeeded',
        true,
      ]);
      expect((r['output'] as Json)['text']).toContain('drain');
    }
    expect(records.at(-1)).toMatchObject({
      state: 'failed',
      errorCode: 'service_interrupted',
      cost: '0',
      settled: true,
    });
    process.stdout.write(
      `SIGTERM on ${kind}: ${streams.length} open answers finished or cut, exited after ${stopMs} ms\n`,
    );
    await moneyBalances();
  });

  it('kill -9: every open answer is ended within the lease, its hold released, its key usable again', async () => {
    // Two answers of each protocol, each under an Idempotency-Key of its own.
    const crashed = [...PROTOCOLS, ...PROTOCOLS];
    const keys = crashed.map((_, i) => `crash-${kind}-${i}`);
    const content = (p: Protocol) => `crash ${p.name} [[delay_ms:3000]]`;
    const streams = await Promise.all(
      crashed.map((p, i) => open(running!.baseUrl, apiKey, p, content(p), keys[i])),
    );
    for (const s of streams) expect([s.protocol.name, s.status]).toEqual([s.protocol.name, 200]);
    accepted.push(...streams.map((s) => s.taskId));
    expect(parseUsd((await get('/api/v1/chat/credit'))['held'] as string)!).toBeGreaterThan(0n);
    running!.child.kill('SIGKILL');
    await running!.exited;
    await Promise.all(streams.map((s) => s.body));

    running = await start(env);
    const restarted = Date.now();
    const records = await settled(
      streams.map((s) => s.taskId),
      LEASE_MS * 5,
    );
    const recoveryMs = Date.now() - restarted;
    for (const r of records)
      expect(r).toMatchObject({
        state: 'failed',
        errorCode: 'service_interrupted',
        cost: '0',
        settled: true,
      });
    // The lease lapsed while the process was down; the restarted one gives live owners half a lease, and sweeps
    // every second.
    expect(recoveryMs).toBeLessThan(LEASE_MS + 1000);
    expect(await get('/api/v1/chat/credit')).toMatchObject({ held: '0', available: expect.any(String) });
    process.stdout.write(
      `kill -9 on ${kind}: ${streams.length} answers ended, holds released, ${recoveryMs} ms after the restart\n`,
    );

    // The same Idempotency-Key and request again: a new task, answered and charged once.
    const again = await Promise.all(
      crashed.map((p, i) => open(running!.baseUrl, apiKey, p, content(p), keys[i])),
    );
    const bodies = await Promise.all(again.map((s) => s.body));
    for (const [i, s] of again.entries()) {
      expect([s.protocol.name, s.status]).toEqual([s.protocol.name, 200]);
      expect(s.taskId).not.toBe(streams[i]!.taskId);
      expect([s.protocol.name, s.protocol.endsNormally(bodies[i]!)]).toEqual([s.protocol.name, true]);
    }
    accepted.push(...again.map((s) => s.taskId));
    const retried = await settled(
      again.map((s) => s.taskId),
      10_000,
    );
    for (const r of retried) expect(r).toMatchObject({ state: 'succeeded', settled: true });
    await moneyBalances();
    running!.child.kill('SIGTERM');
    expect(await running!.exited).toBe(0);
    running = undefined;
  });
});
