import { request as httpRequest } from 'node:http';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

type Json = Record<string, unknown>;

jest.setTimeout(90_000);
const dataOf = (reply: Reply) => reply.json['data'] as Json;

/** The `data:` payloads of an SSE body, and its `event:` names, in order. */
function frames(body: string): { event?: string; data: string }[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      return { ...(event ? { event } : {}), data };
    });
}

describe('POST /api/v1/jobs/stream: a text task answered as Server-Sent Events', () => {
  let app: Embedded;

  beforeAll(async () => {
    app = await startEmbedded({ LOG_LEVEL: 'silent', RATE_LIMIT_BURST: '2000' });
  });
  afterAll(() => app.close());

  async function customer(credit: string) {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 's', credit })) as {
      accountId: string;
    };
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    return { authorization: `Bearer ${apiKey}` };
  }

  const stream = (auth: Record<string, string>, input: Json, headers: Record<string, string> = {}) =>
    app.call('POST', '/api/v1/jobs/stream', {
      headers: { ...auth, ...headers },
      body: { model: 'local/echo/chat', input },
    });

  async function settled(auth: Record<string, string>, taskId: string): Promise<Json> {
    const until = Date.now() + 30_000;
    for (;;) {
      const task = dataOf(
        await app.call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth }),
      );
      if (task['settled'] === true) return task;
      if (Date.now() > until) throw new Error(`task ${taskId} stayed ${JSON.stringify(task)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const balance = async (auth: Record<string, string>) =>
    dataOf(await app.call('GET', '/api/v1/chat/credit', { headers: auth }));

  it('streams the answer token by token, ends with [DONE], and settles the task by its usage', async () => {
    const auth = await customer('1');
    const reply = await stream(auth, { messages: [{ role: 'user', content: 'Say hello world' }] });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(reply.headers.get('x-request-id')).toMatch(/^req_/);
    const taskId = reply.headers.get('x-service-task-id')!;
    expect(taskId).toMatch(/^job_/);
    const all = frames(reply.text);
    expect(all.at(-1)).toEqual({ data: '[DONE]' });
    const events = all.slice(0, -1).map((f) => JSON.parse(f.data) as Json);
    const deltas = events.filter((e) => e['type'] === 'text').map((e) => e['delta']);
    expect(deltas).toEqual(['Echo', ':', ' Say', ' hello', ' world']);
    expect(events.at(-2)).toMatchObject({ type: 'usage', outputTokens: 5 });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    const task = await settled(auth, taskId);
    expect(task).toMatchObject({ state: 'succeeded', output: { text: 'Echo: Say hello world' } });
    expect(await balance(auth)).toMatchObject({ held: '0' });
  });

  it('refuses a media model with 503 and a bad input with 400, as JSON, holding nothing', async () => {
    const auth = await customer('1');
    const media = await app.call('POST', '/api/v1/jobs/stream', {
      headers: auth,
      body: { model: 'local/sketch', input: { prompt: 'x' } },
    });
    expect([media.status, media.json['code']]).toEqual([503, 503]);
    const bad = await stream(auth, { messages: [] });
    expect([bad.status, bad.json['code']]).toEqual([400, 400]);
    expect(await balance(auth)).toMatchObject({ available: '1', held: '0' });
  });

  it('a failure before the first event is a JSON error; the hold is released', async () => {
    const auth = await customer('1');
    const failed = await stream(auth, {
      messages: [{ role: 'user', content: 'x [[simulate:upstream_failed]]' }],
    });
    expect([failed.status, failed.json['code']]).toEqual([503, 50301]);
    const refused = await stream(auth, {
      messages: [{ role: 'user', content: 'x [[simulate:content_rejected]]' }],
    });
    expect([refused.status, refused.json['code']]).toEqual([400, 400]);
    const taskId = refused.headers.get('x-service-task-id')!;
    expect(await settled(auth, taskId)).toMatchObject({
      state: 'failed',
      errorCode: 'content_rejected',
      cost: '0',
    });
    expect(await balance(auth)).toMatchObject({ available: '1', held: '0' });
  });

  it('a failure mid-stream ends with an error event; nothing is charged for the truncated answer', async () => {
    const auth = await customer('1');
    const reply = await stream(auth, {
      messages: [{ role: 'user', content: 'a long answer [[simulate:stream_cut]] that breaks' }],
    });
    expect(reply.status).toBe(200);
    const all = frames(reply.text);
    const last = all.at(-1)!;
    expect(last.event).toBe('error');
    expect(JSON.parse(last.data)).toMatchObject({ errorCode: 'upstream_failed' });
    expect(all.some((f) => f.data === '[DONE]')).toBe(false);
    const task = await settled(auth, reply.headers.get('x-service-task-id')!);
    expect(task).toMatchObject({ state: 'failed', cost: '0' });
    expect(await balance(auth)).toMatchObject({ available: '1', held: '0' });
  });

  it('an Idempotency-Key used again gives 409 naming the task, and charges nothing twice', async () => {
    const auth = await customer('1');
    const input = { messages: [{ role: 'user', content: 'once' }] };
    const first = await stream(auth, input, { 'idempotency-key': 'stream-1' });
    const taskId = first.headers.get('x-service-task-id')!;
    await settled(auth, taskId);
    const after = await balance(auth);
    const again = await stream(auth, input, { 'idempotency-key': 'stream-1' });
    expect([again.status, again.json['code']]).toEqual([409, 409]);
    expect(again.headers.get('x-service-task-id')).toBe(taskId);
    expect(await balance(auth)).toEqual(after);
  });

  it('a client that disconnects stops reception only: the task finishes and is settled by its usage', async () => {
    const auth = await customer('1');
    const url = new URL('/api/v1/jobs/stream', app.baseUrl);
    const taskId = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: 'POST', headers: { ...auth, 'content-type': 'application/json' } },
        (res) => {
          const id = res.headers['x-service-task-id'] as string;
          // Read the first bytes, then go away while the model still "thinks".
          res.once('data', () => {
            req.destroy();
            resolve(id);
          });
        },
      );
      req.on('error', () => undefined);
      req.end(
        JSON.stringify({
          model: 'local/echo/chat',
          input: { messages: [{ role: 'user', content: 'slow [[delay_ms:10]] answer that goes on and on' }] },
        }),
      );
      setTimeout(() => reject(new Error('no response')), 10_000);
    });
    const task = await settled(auth, taskId);
    expect(task).toMatchObject({
      state: 'succeeded',
      output: { text: 'Echo: slow answer that goes on and on' },
    });
    expect(task['cost']).not.toBe('0');
  });
});
