import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { sseBlocks, sseJson } from '@gen/testing';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHUTDOWN_DRAIN, type ShutdownDrain } from '@gen/core';
import { sseFrame } from '@gen/providers/testing';
import { startEmbedded, type Embedded } from './testing/embedded-harness';

type Json = Record<string, unknown>;

jest.setTimeout(60_000);

/** An OpenAI-compatible upstream that streams "Hello there" and then never finishes (until its call is closed). */
class StallingUpstream {
  readonly open = new Set<ServerResponse>();
  closed = 0;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<StallingUpstream> {
    const server = createServer();
    const upstream = new StallingUpstream(server);
    server.on('request', (req, res) => {
      req.resume();
      req.on('end', () => {
        upstream.open.add(res);
        res.on('close', () => {
          upstream.open.delete(res);
          upstream.closed += 1;
        });
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (delta: Json) =>
          sseFrame({
            id: 'up-1',
            object: 'chat.completion.chunk',
            created: 1,
            model: 'up',
            choices: [{ index: 0, delta, finish_reason: null }],
          });
        res.write(chunk({ role: 'assistant', content: 'Hello' }));
        res.write(chunk({ content: ' there' }));
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

const MODEL = 'acme/talk/chat';
const MESSAGES = [{ role: 'user', content: 'Say hello' }];

/**
 * Each way to ask for a text answer, and how its client sees the end of an answer cut after "Hello there": as a
 * complete answer ends, with the protocol's finish reason for an answer stopped short (length).
 */
const CASES: { name: string; path: string; body: Json; ends: (body: string) => void }[] = [
  {
    name: 'native',
    path: '/api/v1/jobs/stream',
    body: { model: MODEL, input: { messages: MESSAGES, max_tokens: 16 } },
    ends: (body) => {
      const events = sseBlocks(body);
      expect(events.at(-1)!.data).toBe('[DONE]');
      expect(events.slice(0, -1).map(sseJson)).toEqual([
        { type: 'text', delta: 'Hello' },
        { type: 'text', delta: ' there' },
        { type: 'usage', inputTokens: 0, cachedInputTokens: 0, outputTokens: 2, reasoningTokens: 0 },
        { type: 'finish', reason: 'length' },
      ]);
    },
  },
  {
    name: 'chat completions',
    path: '/v1/chat/completions',
    body: {
      model: MODEL,
      messages: MESSAGES,
      max_tokens: 16,
      stream: true,
      stream_options: { include_usage: true },
    },
    ends: (body) => {
      const events = sseBlocks(body);
      expect(events.at(-1)!.data).toBe('[DONE]');
      expect(sseJson(events.at(-2))['usage']).toMatchObject({ prompt_tokens: 0, completion_tokens: 2 });
      expect(sseJson(events.at(-3))['choices']).toEqual([{ index: 0, delta: {}, finish_reason: 'length' }]);
    },
  },
  {
    name: 'chat completions, whole',
    path: '/v1/chat/completions',
    body: { model: MODEL, messages: MESSAGES, max_tokens: 16 },
    ends: (body) =>
      expect(JSON.parse(body)).toMatchObject({
        choices: [{ message: { content: 'Hello there' }, finish_reason: 'length' }],
        usage: { completion_tokens: 2 },
      }),
  },
  {
    name: 'responses',
    path: '/v1/responses',
    body: { model: MODEL, input: 'Say hello', max_output_tokens: 16, stream: true },
    ends: (body) => {
      const last = sseBlocks(body).at(-1)!;
      expect(last.event).toBe('response.incomplete');
      expect(sseJson(last)['response']).toMatchObject({
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
      });
    },
  },
  {
    name: 'messages',
    path: '/v1/messages',
    body: { model: MODEL, max_tokens: 16, messages: MESSAGES, stream: true },
    ends: (body) => {
      const events = sseBlocks(body);
      expect(events.at(-1)!.event).toBe('message_stop');
      expect(sseJson(events.at(-2))).toMatchObject({
        delta: { stop_reason: 'max_tokens' },
        usage: { output_tokens: 2 },
      });
    },
  },
  {
    name: 'generate content',
    path: `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
    body: {
      contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }],
      generationConfig: { maxOutputTokens: 16 },
    },
    ends: (body) =>
      expect(sseJson(sseBlocks(body).at(-1))).toMatchObject({
        candidates: [{ finishReason: 'MAX_TOKENS' }],
        usageMetadata: { candidatesTokenCount: 2 },
      }),
  },
];

/**
 * SIGTERM's drain (SHUTDOWN_DRAIN) cutting answers still running: each client's stream (or whole answer) ends as
 * a complete one does, with the finish reason of an answer stopped short, and each task is settled by what was
 * delivered: two output tokens, the model having given no count of its own.
 */
describe('text answers cut by the drain at the end of the shutdown grace', () => {
  let app: Embedded;
  let upstream: StallingUpstream;

  beforeAll(async () => {
    upstream = await StallingUpstream.start();
    const shipped = JSON.parse(readFileSync('libs/catalog/catalog/models.json', 'utf8')) as {
      models: Json[];
    };
    const echo = shipped.models.find((m) => m['id'] === 'local/echo/chat')!;
    const model = {
      id: MODEL,
      name: 'Talk',
      description: 'A chat model behind an OpenAI-compatible upstream that stalls (tests).',
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
      pricing: {
        perMillionInputTokens: '1',
        perMillionCachedInputTokens: '0.1',
        perMillionOutputTokens: '1000',
      },
      text: echo['text'],
      examples: [{ input: { messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 16 } }],
    };
    const file = join(mkdtempSync(join(tmpdir(), 'stream-cut-')), 'models.json');
    writeFileSync(file, JSON.stringify({ version: 1, models: [...shipped.models, model] }));
    app = await startEmbedded({ LOG_LEVEL: 'silent', CATALOG_FILE: file, RATE_LIMIT_BURST: '2000' });
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  it('ends every protocol as a complete answer ends, and charges the two tokens delivered', async () => {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 'cut', credit: '1' })) as {
      accountId: string;
    };
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    const replies = CASES.map((c) =>
      fetch(`${app.baseUrl}${c.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(c.body),
      }),
    );
    // Every answer delivered "Hello there" and waits for the rest.
    for (let i = 0; upstream.open.size < CASES.length; i += 1) {
      if (i > 200) throw new Error(`only ${upstream.open.size} upstream calls open`);
      await new Promise((r) => setTimeout(r, 25));
    }
    await new Promise((r) => setTimeout(r, 200));
    const drainedAt = Date.now();
    await app.app.get<ShutdownDrain>(SHUTDOWN_DRAIN).drain(drainedAt, drainedAt + 5000);
    expect(Date.now() - drainedAt).toBeLessThan(2000);
    const taskIds: string[] = [];
    for (const [i, reply] of (await Promise.all(replies)).entries()) {
      expect([CASES[i]!.name, reply.status]).toEqual([CASES[i]!.name, 200]);
      taskIds.push(reply.headers.get('x-service-task-id')!);
      CASES[i]!.ends(await reply.text());
    }
    // The upstream calls were closed at the cut.
    for (let i = 0; i < 100 && upstream.open.size > 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(upstream.open.size).toBe(0);

    const auth = { authorization: `Bearer ${apiKey}` };
    for (const taskId of taskIds) {
      let task: Json = {};
      for (let i = 0; i < 100 && task['settled'] !== true; i += 1) {
        task = (await app.call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth })).json[
          'data'
        ] as Json;
        if (task['settled'] !== true) await new Promise((r) => setTimeout(r, 50));
      }
      // Two output tokens at 1000 USD per million, no input counted: the cut was the service's.
      expect(task).toMatchObject({
        state: 'succeeded',
        settled: true,
        cost: '0.002',
        output: {
          text: 'Hello there',
          finishReason: 'length',
          usage: { prompt_tokens: 0, completion_tokens: 2 },
        },
      });
    }
    const credit = (await app.call('GET', '/api/v1/chat/credit', { headers: auth })).json['data'] as Json;
    expect(credit).toMatchObject({ held: '0', available: String(1 - 0.002 * CASES.length) });
  });
});
