import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sseFrame } from '@gen/providers/testing';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

type Json = Record<string, unknown>;

jest.setTimeout(90_000);
const dataOf = (reply: Reply) => reply.json['data'] as Json;

/** One request the upstream received: whether the service closed it before the answer ended. */
interface Seen {
  readonly body: Json;
  /** How many tasks the calling key had when the request arrived (read through the service's own API). */
  tasksAtArrival?: number;
  aborted: boolean;
  ended: boolean;
}

/**
 * An OpenAI-compatible upstream that answers every request after `delayMs` with a short streamed answer and
 * its usage, and records each request and whether the service closed it before the end.
 */
class RecordingUpstream {
  readonly seen: Seen[] = [];
  delayMs = 0;
  /** Called when a request arrives (before the answer). */
  onArrival: ((seen: Seen) => Promise<void>) | undefined;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<RecordingUpstream> {
    const server = createServer();
    const upstream = new RecordingUpstream(server);
    server.on('request', (req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        const seen: Seen = {
          body: JSON.parse(Buffer.concat(parts).toString('utf8')) as Json,
          aborted: false,
          ended: false,
        };
        upstream.seen.push(seen);
        res.on('close', () => (seen.aborted = !seen.ended));
        void (async () => {
          await upstream.onArrival?.(seen);
          await new Promise((r) => setTimeout(r, upstream.delayMs));
          if (res.destroyed) return;
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          const chunk = (delta: Json, finish: string | null) =>
            sseFrame({
              id: 'up-1',
              object: 'chat.completion.chunk',
              created: 1,
              model: 'up',
              choices: [{ index: 0, delta, finish_reason: finish }],
            });
          res.write(chunk({ role: 'assistant', content: 'Hello' }, null));
          res.write(chunk({ content: ' there' }, null));
          res.write(chunk({}, 'stop'));
          res.write(
            sseFrame({
              id: 'up-1',
              object: 'chat.completion.chunk',
              created: 1,
              model: 'up',
              choices: [],
              usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
            }),
          );
          res.write('data: [DONE]\n\n');
          seen.ended = true;
          res.end();
        })();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return upstream;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('a text stream calls its model beside the acceptance, never charging for a call it refused', () => {
  let app: Embedded;
  let upstream: RecordingUpstream;

  beforeAll(async () => {
    upstream = await RecordingUpstream.start();
    const shipped = JSON.parse(readFileSync('libs/catalog/catalog/models.json', 'utf8')) as {
      models: Json[];
    };
    const echo = shipped.models.find((m) => m['id'] === 'local/echo/chat')!;
    const model = {
      id: 'acme/talk/chat',
      name: 'Acme chat',
      description: 'A chat model behind an OpenAI-compatible upstream (tests).',
      enabled: true,
      modality: 'text',
      task: 'chat',
      created: '2026-03-01',
      provider: {
        adapter: 'openai-compatible',
        upstreamModel: 'up',
        credentials: [],
        settings: { baseUrl: upstream.baseUrl, maxAttempts: 1 },
      },
      // Output tokens are dear: a max_tokens of 4000 holds 4 USD, more than the accounts here have.
      pricing: {
        perMillionInputTokens: '1',
        perMillionCachedInputTokens: '0.1',
        perMillionOutputTokens: '1000',
      },
      text: echo['text'],
      examples: [{ input: { messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 16 } }],
    };
    const file = join(mkdtempSync(join(tmpdir(), 'early-start-')), 'models.json');
    writeFileSync(file, JSON.stringify({ version: 1, models: [...shipped.models, model] }));
    app = await startEmbedded({ LOG_LEVEL: 'silent', CATALOG_FILE: file, RATE_LIMIT_BURST: '2000' });
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  async function customer(credit: string) {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 'e', credit })) as {
      accountId: string;
    };
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    return { authorization: `Bearer ${apiKey}` };
  }

  const chat = (auth: Record<string, string>, maxTokens: number, headers: Record<string, string> = {}) =>
    app.call('POST', '/v1/chat/completions', {
      headers: { ...auth, ...headers },
      body: {
        model: 'acme/talk/chat',
        stream: true,
        max_tokens: maxTokens,
        messages: [{ role: 'user', content: 'Say hello.' }],
      },
    });
  const taskCount = async (auth: Record<string, string>) =>
    (dataOf(await app.call('GET', '/api/v1/jobs?limit=100', { headers: auth }))['items'] as unknown[]).length;
  const balance = async (auth: Record<string, string>) =>
    dataOf(await app.call('GET', '/api/v1/chat/credit', { headers: auth }));
  async function settledCost(auth: Record<string, string>, taskId: string): Promise<string> {
    const until = Date.now() + 20_000;
    for (;;) {
      const task = dataOf(
        await app.call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth }),
      );
      if (task['settled'] === true) return task['cost'] as string;
      if (Date.now() > until) throw new Error(`task ${taskId} stayed ${JSON.stringify(task)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const until = async (check: () => boolean) => {
    const deadline = Date.now() + 5000;
    while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return check();
  };

  it('calls after acceptance first; once funded, beside it; a refused hold aborts that call and changes nothing', async () => {
    const auth = await customer('1');
    upstream.seen.length = 0;
    upstream.onArrival = async (seen) => void (seen.tasksAtArrival = await taskCount(auth));

    // The account's first stream here: the model is called once the task exists.
    const first = await chat(auth, 16);
    expect(first.status).toBe(200);
    expect(first.text).toContain('Hello');
    expect(first.text).toContain('data: [DONE]');
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]!.tasksAtArrival).toBe(1);
    const cost = await settledCost(auth, first.headers.get('x-service-task-id')!);
    // 10 input tokens at 1 USD and 2 output tokens at 1000 USD per million.
    expect(cost).toBe('0.00201');
    upstream.onArrival = undefined;

    // Funded last time: the next one calls the model at once. Its hold (4 USD) is refused: 402 before any
    // byte, and the call already made is aborted.
    upstream.delayMs = 3000;
    const refused = await chat(auth, 4000);
    expect(refused.status).toBe(402);
    expect(refused.headers.get('content-type')).toContain('application/json');
    expect((refused.json['error'] as Json)['code']).toBe('insufficient_balance');
    // The early call was aborted: before it left (the refusal is one statement away), or at the upstream.
    await new Promise((r) => setTimeout(r, 200));
    expect(upstream.seen.length).toBeLessThanOrEqual(2);
    expect(await until(() => upstream.seen.slice(1).every((s) => s.aborted && !s.ended))).toBe(true);
    expect(await taskCount(auth)).toBe(1);
    expect(await balance(auth)).toMatchObject({ available: '0.99799', held: '0' });

    // Refused last time: no early call any more, so a second refusal reaches no upstream at all.
    const seenBefore = upstream.seen.length;
    const again = await chat(auth, 4000);
    expect(again.status).toBe(402);
    await new Promise((r) => setTimeout(r, 200));
    expect(upstream.seen).toHaveLength(seenBefore);

    // And a stream that fits is called after its acceptance again, then answered.
    upstream.delayMs = 0;
    upstream.onArrival = async (seen) => void (seen.tasksAtArrival = await taskCount(auth));
    const fits = await chat(auth, 16);
    expect(fits.status).toBe(200);
    expect(fits.text).toContain('Hello');
    expect(upstream.seen.at(-1)!.tasksAtArrival).toBe(2);
    upstream.onArrival = undefined;
    await settledCost(auth, fits.headers.get('x-service-task-id')!);
    expect(await balance(auth)).toMatchObject({ available: '0.99598', held: '0' });
  });

  it('an early call reads the same answer, and a replayed Idempotency-Key aborts its early call', async () => {
    const auth = await customer('1');
    upstream.delayMs = 0;
    await chat(auth, 16); // the account is now known to be funded here
    upstream.seen.length = 0;
    const key = { 'idempotency-key': 'early-start-replay' };
    const early = await chat(auth, 16, key);
    expect(early.status).toBe(200);
    expect(early.text).toContain('Hello');
    expect(early.text).toContain(' there');
    expect(upstream.seen).toHaveLength(1);
    const taskId = early.headers.get('x-service-task-id')!;
    await settledCost(auth, taskId);
    const before = await balance(auth);

    upstream.delayMs = 3000;
    const replay = await chat(auth, 16, key);
    expect(replay.headers.get('x-service-task-id')).toBe(taskId);
    // The early call was aborted: before it left (the replay is one statement away), or at the upstream.
    await new Promise((r) => setTimeout(r, 200));
    expect(upstream.seen.length).toBeLessThanOrEqual(2);
    expect(await until(() => upstream.seen.slice(1).every((s) => s.aborted))).toBe(true);
    expect(await taskCount(auth)).toBe(2);
    expect(await balance(auth)).toEqual(before);
  });
});
