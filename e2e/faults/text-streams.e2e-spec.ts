import { createScratchPostgres, type ScratchDatabase, sseBlocks, sseJson, type SseBlock } from '@gen/testing';
import { startFleet, type Fleet } from '../support/fleet';
import { until } from '../support/load';
import { checkMoney } from '../support/money';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const LEASE_MS = 3000;
const GRACE_MS = 6000;
/** Streams open (200, a keep-alive) this soon, so the client has its task id before the process goes. */
const KEEPALIVE_MS = 250;
const MODEL = 'local/echo/chat';

/** A way to stream a text answer, the app that serves it in the fleet, and how a complete stream of it ends. */
interface Protocol {
  readonly name: string;
  readonly app: 'tasks' | 'compat-protocols';
  readonly path: string;
  readonly body: (content: string) => unknown;
  readonly endsNormally: (events: SseBlock[]) => boolean;
}

const PROTOCOLS: Protocol[] = [
  {
    name: 'native',
    app: 'tasks',
    path: '/api/v1/jobs/stream',
    body: (content) => ({ model: MODEL, input: { messages: [{ role: 'user', content }] } }),
    endsNormally: (events) => events.at(-1)?.data === '[DONE]' && sseJson(events.at(-2))['type'] === 'finish',
  },
  {
    name: 'chat completions',
    app: 'compat-protocols',
    path: '/v1/chat/completions',
    body: (content) => ({ model: MODEL, messages: [{ role: 'user', content }], stream: true }),
    endsNormally: (events) =>
      events.at(-1)?.data === '[DONE]' && events.some((e) => e.data.includes('"finish_reason":"stop"')),
  },
  {
    name: 'responses',
    app: 'compat-protocols',
    path: '/v1/responses',
    body: (content) => ({ model: MODEL, input: content, stream: true }),
    endsNormally: (events) => events.at(-1)?.event === 'response.completed',
  },
  {
    name: 'messages',
    app: 'compat-protocols',
    path: '/v1/messages',
    body: (content) => ({
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: 'user', content }],
      stream: true,
    }),
    endsNormally: (events) => events.at(-1)?.event === 'message_stop',
  },
  {
    name: 'generate content',
    app: 'compat-protocols',
    path: `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
    body: (content) => ({ contents: [{ role: 'user', parts: [{ text: content }] }] }),
    endsNormally: (events) =>
      (sseJson(events.at(-1))['candidates'] as { finishReason?: string }[] | undefined)?.[0]?.finishReason ===
      'STOP',
  },
];

interface Opened {
  readonly protocol: Protocol;
  readonly status: number;
  readonly taskId: string;
  readonly body: Promise<string>;
}

/**
 * Text answers of a fleet whose streaming apps stop (`npm run start:fleet`, PostgreSQL, Kafka): the native stream
 * runs in the tasks app, the compatibility protocols in compat-protocols, whose tasks live in the tasks app.
 * SIGTERM of both while they stream: every answer finishes, its stream ends as a complete one does, and it is
 * settled by its usage. SIGKILL of both: the supervisor starts them again, the tasks app ends every task whose
 * stream lease lapsed (failed, `service_interrupted`, hold released) and the Idempotency-Keys work again. Each
 * test ends with the money invariant in SQL (e2e/support/money.ts).
 */
describe('text answers when the fleet apps that stream them stop', () => {
  let database: ScratchDatabase | undefined;
  let fleet: Fleet | undefined;
  const figures: string[] = [];

  beforeAll(async () => {
    database = await createScratchPostgres();
    fleet = await startFleet('streams', {
      databaseUrl: database.url,
      env: {
        TEXT_STREAM_LEASE_MS: String(LEASE_MS),
        TEXT_STREAM_KEEPALIVE_MS: String(KEEPALIVE_MS),
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
      },
    });
  }, 240_000);

  afterAll(async () => {
    const code = await fleet?.stop();
    await database?.drop();
    process.stdout.write(figures.map((line) => `${line}\n`).join(''));
    if (fleet) expect(code).toBe(0);
  }, 90_000);

  afterEach(async () => {
    const money = await checkMoney(fleet!.databaseUrl);
    expect(money.violations).toEqual([]);
    expect(money.openWithoutTask).toEqual([]);
    expect(money.holds.open).toBe(0);
  });

  async function open(protocol: Protocol, content: string, idempotencyKey?: string): Promise<Opened> {
    const response = await fetch(`${fleet!.baseUrl}${protocol.path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${fleet!.apiKey}`,
        'content-type': 'application/json',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: JSON.stringify(protocol.body(content)),
    });
    const body = (async () => {
      const decoder = new TextDecoder();
      let text = '';
      try {
        for await (const chunk of response.body! as unknown as AsyncIterable<Uint8Array>)
          text += decoder.decode(chunk, { stream: true });
      } catch {
        // cut off with its process
      }
      return text + decoder.decode();
    })();
    return {
      protocol,
      status: response.status,
      taskId: response.headers.get('x-service-task-id') ?? '',
      body,
    };
  }

  const records = (taskIds: readonly string[]): Promise<Json[]> =>
    Promise.all(
      taskIds.map(async (taskId) => {
        const response = await fetch(`${fleet!.baseUrl}/api/v1/jobs/recordInfo?taskId=${taskId}`, {
          headers: { authorization: `Bearer ${fleet!.apiKey}` },
        }).catch(() => null);
        return response?.ok ? (((await response.json()) as Json)['data'] as Json) : {};
      }),
    );
  const settled = (rs: Json[]): boolean => rs.every((r) => r['settled'] === true);

  /** Stops both streaming apps with `signal` and waits until the supervisor has them answering again. */
  async function stopBoth(signal: NodeJS.Signals): Promise<number> {
    const pids = await Promise.all(
      ['compat-protocols#1', 'tasks#1'].map((name) => fleet!.kill(name, signal)),
    );
    const stoppedAt = Date.now();
    await Promise.all(['compat-protocols#1', 'tasks#1'].map((name, i) => fleet!.restarted(name, pids[i]!)));
    return stoppedAt;
  }

  it('SIGTERM: every open answer is finished, ends as a complete stream, and is settled by its usage', async () => {
    const streams = await Promise.all(
      [...PROTOCOLS, ...PROTOCOLS].map((p) => open(p, `drain ${p.name} [[delay_ms:1500]]`)),
    );
    for (const s of streams) expect([s.protocol.name, s.status]).toEqual([s.protocol.name, 200]);
    const stoppedAt = await stopBoth('SIGTERM');
    const bodies = await Promise.all(streams.map((s) => s.body));
    for (const [i, s] of streams.entries())
      expect([s.protocol.name, s.protocol.endsNormally(sseBlocks(bodies[i]!))]).toEqual([
        s.protocol.name,
        true,
      ]);
    const final = await until(() => records(streams.map((s) => s.taskId)), settled, 60_000);
    for (const [i, r] of final.entries())
      expect([streams[i]!.protocol.name, r['state'], r['settled']]).toEqual([
        streams[i]!.protocol.name,
        'succeeded',
        true,
      ]);
    figures.push(
      `SIGTERM of compat-protocols and tasks during ${streams.length} streams: all delivered and settled ${Date.now() - stoppedAt} ms after the stop`,
    );
  }, 120_000);

  it('kill -9: every open answer is ended within the lease, its hold released, its key usable again', async () => {
    const crashed = [...PROTOCOLS, ...PROTOCOLS];
    const keys = crashed.map((_, i) => `fleet-crash-${i}`);
    const content = (p: Protocol) => `crash ${p.name} [[delay_ms:3000]]`;
    const streams = await Promise.all(crashed.map((p, i) => open(p, content(p), keys[i])));
    for (const s of streams) expect([s.protocol.name, s.status]).toEqual([s.protocol.name, 200]);
    const killedAt = await stopBoth('SIGKILL');
    const back = Date.now();
    await Promise.all(streams.map((s) => s.body));
    const final = await until(() => records(streams.map((s) => s.taskId)), settled, 60_000);
    const endedMs = Date.now() - killedAt;
    for (const r of final)
      expect(r).toMatchObject({
        state: 'failed',
        errorCode: 'service_interrupted',
        cost: '0',
        settled: true,
      });
    figures.push(
      `SIGKILL of compat-protocols and tasks during ${streams.length} streams: all ended, holds released ${endedMs} ms after the kill (${Date.now() - back} ms after both answered again)`,
    );

    // The same Idempotency-Key and request again: a new task, answered and charged once.
    const again = await Promise.all(crashed.map((p, i) => open(p, content(p), keys[i])));
    const bodies = await Promise.all(again.map((s) => s.body));
    for (const [i, s] of again.entries()) {
      expect([s.protocol.name, s.status]).toEqual([s.protocol.name, 200]);
      expect(s.taskId).not.toBe(streams[i]!.taskId);
      expect([s.protocol.name, s.protocol.endsNormally(sseBlocks(bodies[i]!))]).toEqual([
        s.protocol.name,
        true,
      ]);
    }
    const retried = await until(() => records(again.map((s) => s.taskId)), settled, 60_000);
    for (const r of retried) expect(r).toMatchObject({ state: 'succeeded', settled: true });
  }, 120_000);
});
