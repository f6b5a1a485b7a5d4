import { request as httpRequest } from 'node:http';
import OpenAI from 'openai';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

type Json = Record<string, unknown>;

jest.setTimeout(60_000);

const KEEP_ALIVE = ': keep-alive\n\n';
/** TEXT_STREAM_KEEPALIVE_MS of this app: a model thinking DELAY_MS is silent for several intervals. */
const INTERVAL_MS = 100;
const DELAY_MS = 600;
const SLOW = `slow [[delay_ms:${DELAY_MS}]] one`;
/** The echo model drops the markers: the slow and the quick message get the same answer. */
const QUICK = 'slow one';
const ANSWER = 'Echo: slow one';

/** A streamed body as it arrived: the first chunk on its own (what a client had before the answer), and all. */
interface Streamed extends Omit<Reply, 'json'> {
  readonly firstChunk: string;
}

/** One SSE block: its comment lines, `event:` name and joined `data:` lines. */
interface Block {
  readonly comment: boolean;
  readonly event?: string;
  readonly data: string;
}

function blocks(body: string): Block[] {
  return body
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((line) => line.startsWith(':'))) return { comment: true, data: '' };
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      return { comment: false, ...(event ? { event } : {}), data };
    });
}

/** The stream's events without its comments, and how many comments came before the first event. */
function parsed(body: string): { leading: number; total: number; events: Block[] } {
  const all = blocks(body);
  const first = all.findIndex((b) => !b.comment);
  return {
    leading: first < 0 ? all.length : first,
    total: all.filter((b) => b.comment).length,
    events: all.filter((b) => !b.comment),
  };
}

/** Each streamed protocol: how it is called, and what its events say (the answer, how it ended). */
interface Protocol {
  readonly name: string;
  readonly path: string;
  readonly key: (apiKey: string) => Record<string, string>;
  readonly body: (content: string) => unknown;
  readonly text: (events: Block[]) => string;
  /** The last event, as the protocol ends a stream normally. */
  readonly ends: (last: Block) => void;
}

const json = (block: Block) => JSON.parse(block.data) as Json;
const bearer = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });

const PROTOCOLS: Protocol[] = [
  {
    name: 'POST /api/v1/jobs/stream',
    path: '/api/v1/jobs/stream',
    key: bearer,
    body: (content) => ({ model: 'local/echo/chat', input: { messages: [{ role: 'user', content }] } }),
    text: (events) =>
      events
        .filter((e) => e.data !== '[DONE]')
        .map(json)
        .filter((e) => e['type'] === 'text')
        .map((e) => e['delta'])
        .join(''),
    ends: (last) => expect(last).toEqual({ comment: false, data: '[DONE]' }),
  },
  {
    name: 'chat completions',
    path: '/v1/chat/completions',
    key: bearer,
    body: (content) => ({ model: 'local/echo/chat', messages: [{ role: 'user', content }], stream: true }),
    text: (events) =>
      events
        .filter((e) => e.data !== '[DONE]')
        .map((e) => (json(e)['choices'] as { delta: { content?: string } }[])[0]?.delta.content ?? '')
        .join(''),
    ends: (last) => expect(last).toEqual({ comment: false, data: '[DONE]' }),
  },
  {
    name: 'responses',
    path: '/v1/responses',
    key: bearer,
    body: (content) => ({ model: 'local/echo/chat', input: content, stream: true }),
    text: (events) =>
      events
        .filter((e) => e.event === 'response.output_text.delta')
        .map((e) => json(e)['delta'])
        .join(''),
    ends: (last) => {
      expect(last.event).toBe('response.completed');
      expect(json(last)['response']).toMatchObject({ status: 'completed' });
    },
  },
  {
    name: 'messages',
    path: '/v1/messages',
    key: (apiKey) => ({ 'x-api-key': apiKey }),
    body: (content) => ({
      model: 'local/echo/chat',
      max_tokens: 100,
      messages: [{ role: 'user', content }],
      stream: true,
    }),
    text: (events) =>
      events
        .filter((e) => e.event === 'content_block_delta')
        .map((e) => (json(e)['delta'] as { text?: string }).text ?? '')
        .join(''),
    ends: (last) => expect(last.event).toBe('message_stop'),
  },
  {
    name: 'generate content, alt=sse',
    path: '/v1beta/models/local/echo/chat:streamGenerateContent?alt=sse',
    key: (apiKey) => ({ 'x-goog-api-key': apiKey }),
    body: (content) => ({ contents: [{ role: 'user', parts: [{ text: content }] }] }),
    text: (events) => geminiText(events.map(json)),
    ends: (last) =>
      expect(json(last)).toMatchObject({ candidates: [{ finishReason: 'STOP' }], usageMetadata: {} }),
  },
];

function geminiText(chunks: Json[]): string {
  return chunks
    .flatMap((c) => (c['candidates'] as { content: { parts: { text?: string }[] } }[] | undefined) ?? [])
    .flatMap((c) => c.content.parts.map((p) => p.text ?? ''))
    .join('');
}

/** Spec, compatibility streaming rule 3: "While a model thinks, a stream carries comment lines `: keep-alive`." */
describe('streams kept alive while the model thinks (TEXT_STREAM_KEEPALIVE_MS)', () => {
  let app: Embedded;
  let apiKey: string;

  beforeAll(async () => {
    app = await startEmbedded({
      LOG_LEVEL: 'silent',
      RATE_LIMIT_BURST: '2000',
      TEXT_STREAM_KEEPALIVE_MS: String(INTERVAL_MS),
    });
    apiKey = await customer('1');
  });
  afterAll(() => app.close());

  async function customer(credit: string): Promise<string> {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 'ka', credit })) as {
      accountId: string;
    };
    const { apiKey: key } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    return key;
  }

  /** A POST read chunk by chunk, as a streaming client reads it. */
  async function streamed(path: string, headers: Record<string, string>, body: unknown): Promise<Streamed> {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const decoder = new TextDecoder();
    const chunks: string[] = [];
    for await (const chunk of response.body! as unknown as AsyncIterable<Uint8Array>) {
      chunks.push(decoder.decode(chunk, { stream: true }));
    }
    chunks.push(decoder.decode());
    return {
      status: response.status,
      headers: response.headers,
      text: chunks.join(''),
      firstChunk: chunks[0]!,
    };
  }

  const balance = async (key: string) =>
    (await app.call('GET', '/api/v1/chat/credit', { headers: bearer(key) })).json['data'] as Json;

  async function settled(key: string, taskId: string): Promise<Json> {
    const until = Date.now() + 30_000;
    for (;;) {
      const reply = await app.call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, {
        headers: bearer(key),
      });
      const task = reply.json['data'] as Json;
      if (task['settled'] === true) return task;
      if (Date.now() > until) throw new Error(`task ${taskId} stayed ${JSON.stringify(task)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  describe.each(PROTOCOLS)('$name', (protocol) => {
    it('a thinking model: `: keep-alive` comments arrive before the first event, then the stream is whole', async () => {
      const slow = await streamed(protocol.path, protocol.key(apiKey), protocol.body(SLOW));
      expect(slow.status).toBe(200);
      expect(slow.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(slow.headers.get('x-service-task-id')).toMatch(/^job_/);
      // The comments came on their own, while the answer was not there yet.
      expect(slow.firstChunk).toMatch(/^(: keep-alive\n\n)+$/);
      const { leading, events } = parsed(slow.text);
      expect(leading).toBeGreaterThanOrEqual(2);
      expect(protocol.text(events)).toBe(ANSWER);
      protocol.ends(events.at(-1)!);

      // The same answer without the wait: no comment, and the same events in the same order.
      const quick = await streamed(protocol.path, protocol.key(apiKey), protocol.body(QUICK));
      expect(quick.status).toBe(200);
      expect(quick.text).not.toContain(KEEP_ALIVE);
      expect(parsed(quick.text).total).toBe(0);
      const quickEvents = parsed(quick.text).events;
      expect(protocol.text(quickEvents)).toBe(ANSWER);
      expect(events.map((e) => e.event ?? 'data')).toEqual(quickEvents.map((e) => e.event ?? 'data'));
    });
  });

  describe('generate content without alt=sse (one JSON array)', () => {
    const path = '/v1beta/models/local/echo/chat:streamGenerateContent';
    const body = (text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }] });

    it('a thinking model: whitespace before the array, never a comment line; the body is JSON', async () => {
      const slow = await streamed(path, { 'x-goog-api-key': apiKey }, body(SLOW));
      expect(slow.status).toBe(200);
      expect(slow.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(slow.firstChunk).toMatch(/^ +$/);
      expect(slow.text).not.toContain('keep-alive');
      expect(slow.text.slice(0, 10)).toMatch(/^ {2,}\[/);
      const chunks = JSON.parse(slow.text) as Json[];
      expect(geminiText(chunks)).toBe(ANSWER);
      expect(chunks.at(-1)).toMatchObject({ candidates: [{ finishReason: 'STOP' }] });

      const quick = await streamed(path, { 'x-goog-api-key': apiKey }, body(QUICK));
      expect(quick.text.startsWith('[')).toBe(true);
      expect(JSON.parse(quick.text)).toHaveLength(chunks.length);
    });

    it('a failure after the whitespace is an error object closing the array, still JSON', async () => {
      const failed = await streamed(
        path,
        { 'x-goog-api-key': apiKey },
        body(`${SLOW} [[simulate:upstream_failed]]`),
      );
      expect(failed.status).toBe(200);
      expect(failed.firstChunk).toMatch(/^ +$/);
      expect(JSON.parse(failed.text)).toEqual([
        { error: expect.objectContaining({ code: 503, status: 'UNAVAILABLE' }) as unknown },
      ]);
    });
  });

  it('native stream: a failure after the keep-alive opened the stream is an error event; the hold is released', async () => {
    const key = await customer('1');
    const failed = await streamed('/api/v1/jobs/stream', bearer(key), {
      model: 'local/echo/chat',
      input: { messages: [{ role: 'user', content: `${SLOW} [[simulate:upstream_failed]]` }] },
    });
    expect(failed.status).toBe(200);
    expect(failed.firstChunk).toMatch(/^(: keep-alive\n\n)+$/);
    const { events } = parsed(failed.text);
    expect(events).toHaveLength(1);
    expect(events[0]!.event).toBe('error');
    const taskId = failed.headers.get('x-service-task-id')!;
    expect(json(events[0]!)).toMatchObject({ taskId, errorCode: 'upstream_failed' });
    expect(await settled(key, taskId)).toMatchObject({ state: 'failed', cost: '0' });
    expect(await balance(key)).toMatchObject({ available: '1', held: '0' });
  });

  it('chat completions: a failure after the keep-alive is an error chunk; a quick failure is still a 503', async () => {
    const messages = (content: string) => [{ role: 'user', content }];
    const late = await streamed('/v1/chat/completions', bearer(apiKey), {
      model: 'local/echo/chat',
      messages: messages(`${SLOW} [[simulate:upstream_failed]]`),
      stream: true,
    });
    expect(late.status).toBe(200);
    expect(late.firstChunk).toMatch(/^(: keep-alive\n\n)+$/);
    const { events } = parsed(late.text);
    expect(events).toHaveLength(1);
    expect(json(events[0]!)).toMatchObject({ error: { code: 'upstream_failed' } });

    const early = await app.call('POST', '/v1/chat/completions', {
      headers: bearer(apiKey),
      body: { model: 'local/echo/chat', messages: messages('x [[simulate:upstream_failed]]'), stream: true },
    });
    expect(early.status).toBe(503);
    expect(early.headers.get('content-type')).toMatch(/^application\/json/);
    expect(early.json).toMatchObject({ error: { code: 'upstream_failed' } });
  });

  it('a client gone during the keep-alive only stops reception: the task finishes and is settled', async () => {
    const key = await customer('1');
    const url = new URL('/api/v1/jobs/stream', app.baseUrl);
    const { taskId, first } = await new Promise<{ taskId: string; first: string }>((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: 'POST', headers: { ...bearer(key), 'content-type': 'application/json' } },
        (res) => {
          res.once('data', (chunk: Buffer) => {
            req.destroy();
            resolve({ taskId: res.headers['x-service-task-id'] as string, first: chunk.toString() });
          });
        },
      );
      req.on('error', () => undefined);
      req.end(JSON.stringify(PROTOCOLS[0]!.body(SLOW)));
      setTimeout(() => reject(new Error('no response')), 10_000);
    });
    expect(first).toBe(KEEP_ALIVE);
    const task = await settled(key, taskId);
    expect(task).toMatchObject({ state: 'succeeded', output: { text: ANSWER } });
    expect(task['cost']).not.toBe('0');
  });

  it('the openai SDK reads a stream with keep-alive comments: the whole text, one finish', async () => {
    // The bytes the SDK parsed, seen on their way to it: the comments were there, and it read past them.
    let seen = '';
    const decoder = new TextDecoder();
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body = response.body!.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            seen += decoder.decode(chunk, { stream: true });
            controller.enqueue(chunk);
          },
        }),
      );
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const openai = new OpenAI({ apiKey, baseURL: `${app.baseUrl}/v1`, maxRetries: 0, fetch: recording });
    const stream = await openai.chat.completions.create({
      model: 'local/echo/chat',
      messages: [{ role: 'user', content: SLOW }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const finishes: string[] = [];
    let usage: unknown = null;
    for await (const chunk of stream) {
      for (const choice of chunk.choices) {
        text += choice.delta.content ?? '';
        if (choice.finish_reason) finishes.push(choice.finish_reason);
      }
      if (chunk.usage) usage = chunk.usage;
    }
    expect(parsed(seen).leading).toBeGreaterThanOrEqual(2);
    expect(text).toBe(ANSWER);
    expect(finishes).toEqual(['stop']);
    expect(usage).toMatchObject({ completion_tokens: 4 });
  });
});
