import { OpenApiCheck } from '@gen/testing';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

type Json = Record<string, unknown>;

jest.setTimeout(60_000);

/** What the SDKs hide: raw frames, headers, the JSON-array stream, error shapes before any byte. */
describe('the compatibility endpoints over raw HTTP', () => {
  let app: Embedded;
  let auth: Record<string, string>;
  let openApi: OpenApiCheck;

  beforeAll(async () => {
    app = await startEmbedded({ LOG_LEVEL: 'silent', RATE_LIMIT_BURST: '2000', TEXT_KEEPALIVE_MS: '300' });
    auth = await customer('1');
    openApi = new OpenApiCheck((await app.call('GET', '/openapi.json')).json);
  });

  /** A call whose reply must also be what /openapi.json documents: status, headers, body schema. */
  async function call(
    method: string,
    path: string,
    options: Parameters<Embedded['call']>[2],
  ): Promise<Reply> {
    const reply = await app.call(method, path, options);
    openApi.check(method, path, reply.status, reply.headers, reply.json);
    return reply;
  }
  afterAll(() => app.close());

  async function customer(credit: string) {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 'raw', credit })) as {
      accountId: string;
    };
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    return { authorization: `Bearer ${apiKey}` };
  }

  const messages = [{ role: 'user', content: 'raw words here' }];

  it('a chat stream with include_usage: usage null on every chunk but the last, one finish_reason, then [DONE]', async () => {
    const reply = await call('POST', '/v1/chat/completions', {
      headers: auth,
      body: { model: 'local/echo/chat', messages, stream: true, stream_options: { include_usage: true } },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const data = reply.text
      .split('\n\n')
      .filter((b) => b.startsWith('data: '))
      .map((b) => b.slice(6));
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as Json);
    const requestId = reply.headers.get('x-request-id')!;
    expect(
      chunks.every((c) => c['id'] === `chatcmpl-${requestId}` && c['object'] === 'chat.completion.chunk'),
    ).toBe(true);
    const last = chunks.at(-1)!;
    expect(last['choices']).toEqual([]);
    expect(last['usage']).toMatchObject({ completion_tokens: 5 });
    expect(chunks.slice(0, -1).every((c) => c['usage'] === null)).toBe(true);
    const finishes = chunks.flatMap((c) =>
      (c['choices'] as { finish_reason: unknown }[]).filter((x) => x.finish_reason),
    );
    expect(finishes).toHaveLength(1);
  });

  it('generate content without alt=sse streams one JSON array', async () => {
    const reply = await call('POST', '/v1beta/models/local/echo/chat:streamGenerateContent', {
      headers: { 'x-goog-api-key': auth['authorization']!.slice(7) },
      body: { contents: [{ role: 'user', parts: [{ text: 'array please' }] }] },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const chunks = JSON.parse(reply.text) as { candidates?: { content: { parts: { text?: string }[] } }[] }[];
    const text = chunks
      .flatMap((c) => c.candidates ?? [])
      .flatMap((c) => c.content.parts.map((p) => p.text ?? ''));
    expect(text.join('')).toBe('Echo: array please');
  });

  describe('generate content under /v1/models/ (where @google/genai 3.x calls it by default)', () => {
    const contents = (text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }] });
    const googleKey = () => ({ 'x-goog-api-key': auth['authorization']!.slice(7) });

    it('answers as under /v1beta: whole, the JSON-array stream, SSE with alt=sse, X-Service-Task-Id', async () => {
      const whole = await call('POST', '/v1/models/local/echo/chat:generateContent', {
        headers: googleKey(),
        body: contents('v1 whole'),
      });
      expect(whole.status).toBe(200);
      expect(whole.headers.get('x-service-task-id')).toMatch(/^job_/);
      expect(whole.json).toMatchObject({
        candidates: [
          { content: { role: 'model', parts: [{ text: 'Echo: v1 whole' }] }, finishReason: 'STOP' },
        ],
        modelVersion: 'local/echo/chat',
        responseId: whole.headers.get('x-request-id'),
      });
      // The model id may also come with its slashes encoded, as under /v1beta.
      const array = await call('POST', '/v1/models/local%2Fecho%2Fchat:streamGenerateContent', {
        headers: auth,
        body: contents('v1 array'),
      });
      expect([array.status, array.headers.get('content-type')]).toEqual([
        200,
        'application/json; charset=utf-8',
      ]);
      expect(array.headers.get('x-service-task-id')).toMatch(/^job_/);
      const chunks = JSON.parse(array.text) as {
        candidates?: { content: { parts: { text?: string }[] } }[];
      }[];
      const text = chunks
        .flatMap((c) => c.candidates ?? [])
        .flatMap((c) => c.content.parts.map((p) => p.text));
      expect(text.join('')).toBe('Echo: v1 array');
      expect(chunks.at(-1)).toMatchObject({ usageMetadata: { candidatesTokenCount: expect.any(Number) } });
      const sse = await call('POST', '/v1/models/local/echo/chat:streamGenerateContent?alt=sse', {
        headers: googleKey(),
        body: contents('v1 sse'),
      });
      expect([sse.status, sse.headers.get('content-type')]).toEqual([
        200,
        'text/event-stream; charset=utf-8',
      ]);
      expect(sse.headers.get('x-service-task-id')).toMatch(/^job_/);
      const events = sse.text
        .split('\n\n')
        .filter((b) => b.startsWith('data: '))
        .map((b) => JSON.parse(b.slice(6)) as (typeof chunks)[number]);
      const streamed = events
        .flatMap((e) => e.candidates ?? [])
        .flatMap((c) => c.content.parts.map((p) => p.text ?? ''));
      expect(streamed.join('')).toBe('Echo: v1 sse');
    });

    it("every refusal is in Google's shape: 404 unknown model, 400 bad body, 401 no key, 402, 404 unknown path", async () => {
      const google = (reply: Reply, code: number, status: string) => {
        expect({ status: reply.status, body: reply.json }).toEqual({
          status: code,
          body: { error: expect.objectContaining({ code, status, message: expect.any(String) }) },
        });
        expect(reply.headers.get('x-service-task-id')).toBeNull();
      };
      const unknown = await call('POST', '/v1/models/nobody/none/chat:generateContent', {
        headers: googleKey(),
        body: contents('x'),
      });
      google(unknown, 404, 'NOT_FOUND');
      expect((unknown.json['error'] as Json)['message']).toContain('local/echo/chat');
      google(
        await call('POST', '/v1/models/local/echo/chat:generateContent', { headers: googleKey(), body: {} }),
        400,
        'INVALID_ARGUMENT',
      );
      google(
        await call('POST', '/v1/models/local/echo/chat:streamGenerateContent', {
          headers: { ...googleKey(), 'content-type': 'application/json' },
          rawBody: '{"contents": [',
        }),
        400,
        'INVALID_ARGUMENT',
      );
      google(
        await call('POST', '/v1/models/local/echo/chat:generateContent', { body: contents('x') }),
        401,
        'UNAUTHENTICATED',
      );
      google(
        await call('POST', '/v1/models/local/echo/chat:streamGenerateContent?alt=sse', {
          headers: { 'x-goog-api-key': 'gts_wrong' },
          body: contents('x'),
        }),
        401,
        'UNAUTHENTICATED',
      );
      const key = auth['authorization']!.slice(7);
      google(
        await call('POST', `/v1/models/local/echo/chat:generateContent?key=${key}`, { body: contents('x') }),
        401,
        'UNAUTHENTICATED',
      );
      const poor = await customer('0');
      google(
        await call('POST', '/v1/models/local/echo/chat:generateContent', {
          headers: poor,
          body: contents('x'),
        }),
        402,
        'FAILED_PRECONDITION',
      );
      // A GET of a generate-content path is no route: 404, in Google's shape like any error on that path.
      google(
        await app.call('GET', '/v1/models/local/echo/chat:generateContent', { headers: googleKey() }),
        404,
        'NOT_FOUND',
      );
    });

    it("the rest of /v1/models stays OpenAI's: the model list, and 404s in OpenAI's shape", async () => {
      const list = await call('GET', '/v1/models', { headers: auth });
      expect(list.status).toBe(200);
      expect(list.json['object']).toBe('list');
      expect(list.json['data']).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: 'local/echo/chat', object: 'model' })]),
      );
      const text = await call('GET', '/v1/models?modality=text', { headers: auth });
      expect((text.json['data'] as Json[]).every((m) => m['modality'] === 'text')).toBe(true);
      expect((await call('GET', '/v1/models', {})).json).toMatchObject({
        error: { type: 'authentication_error' },
      });
      // No route serves one model under /v1/models (before this change neither): OpenAI's 404.
      for (const [method, path] of [
        ['GET', '/v1/models/local/echo/chat'],
        ['POST', '/v1/models/local/echo/chat'],
        ['POST', '/v1/models/local/echo/chat:embedContent'],
      ] as const) {
        const reply = await app.call(method, path, {
          headers: auth,
          body: method === 'POST' ? {} : undefined,
        });
        expect({ path, status: reply.status, error: reply.json['error'] }).toEqual({
          path,
          status: 404,
          error: expect.objectContaining({ type: 'not_found_error', code: 'not_found' }),
        });
      }
    });
  });

  it('402 in each protocol before any byte when the balance cannot cover the hold; nothing is held', async () => {
    const poor = await customer('0');
    const chat = await call('POST', '/v1/chat/completions', {
      headers: poor,
      body: { model: 'local/echo/chat', messages },
    });
    expect(chat.status).toBe(402);
    expect((chat.json['error'] as Json)['type']).toBe('insufficient_quota');
    const anthropic = await call('POST', '/v1/messages', {
      headers: { 'x-api-key': poor['authorization']!.slice(7) },
      body: { model: 'local/echo/chat', max_tokens: 10, messages },
    });
    expect(anthropic.status).toBe(402);
    expect(anthropic.json).toMatchObject({ type: 'error', error: { type: 'billing_error' } });
    const google = await call('POST', '/v1beta/models/local/echo/chat:generateContent', {
      headers: { 'x-goog-api-key': poor['authorization']!.slice(7) },
      body: { contents: [{ role: 'user', parts: [{ text: 'x' }] }] },
    });
    expect(google.status).toBe(402);
    expect(google.json).toMatchObject({ error: { code: 402, status: 'FAILED_PRECONDITION' } });
  });

  it('refusals before any byte come as documented, in each protocol: 404 model, 400 refusal, 503 failure, 409 replay', async () => {
    const protocols: {
      name: string;
      path: (model: string) => string;
      body: (model: string, text: string) => Json;
    }[] = [
      {
        name: 'chat',
        path: () => '/v1/chat/completions',
        body: (model, text) => ({ model, messages: [{ role: 'user', content: text }] }),
      },
      { name: 'responses', path: () => '/v1/responses', body: (model, text) => ({ model, input: text }) },
      {
        name: 'messages',
        path: () => '/v1/messages',
        body: (model, text) => ({ model, max_tokens: 20, messages: [{ role: 'user', content: text }] }),
      },
      {
        name: 'generate',
        path: (model) => `/v1beta/models/${model}:generateContent`,
        body: (_model, text) => ({ contents: [{ role: 'user', parts: [{ text }] }] }),
      },
    ];
    const codes: Record<string, unknown[]> = {};
    for (const protocol of protocols) {
      const ask = (model: string, text: string, headers: Record<string, string> = {}) =>
        call('POST', protocol.path(model), {
          headers: { ...auth, ...headers },
          body: protocol.body(model, text),
        });
      const unknown = await ask('nobody/none/chat', 'hello');
      const rejected = await ask('local/echo/chat', '[[simulate:content_rejected]] hello');
      const failed = await ask('local/echo/chat', '[[simulate:upstream_failed]] hello');
      const key = { 'idempotency-key': `raw-replay-${protocol.name}` };
      const first = await ask('local/echo/chat', 'once only', key);
      const again = await ask('local/echo/chat', 'once only', key);
      expect([unknown.status, rejected.status, failed.status, first.status, again.status]).toEqual([
        404, 400, 503, 200, 409,
      ]);
      expect(again.headers.get('x-service-task-id')).toBe(first.headers.get('x-service-task-id'));
      expect(failed.headers.get('x-service-task-id')).toMatch(/^job_/);
      const error = (reply: Reply) => reply.json['error'] as Json;
      codes[protocol.name] = [unknown, rejected, failed].map((reply) =>
        protocol.name === 'messages'
          ? error(reply)['type']
          : protocol.name === 'generate'
            ? error(reply)['status']
            : error(reply)['code'],
      );
    }
    expect(codes).toEqual({
      chat: ['model_not_found', 'content_rejected', 'upstream_failed'],
      responses: ['model_not_found', 'content_rejected', 'upstream_failed'],
      messages: ['not_found_error', 'invalid_request_error', 'overloaded_error'],
      generate: ['NOT_FOUND', 'INVALID_ARGUMENT', 'UNAVAILABLE'],
    });
  });

  it('a key in the query string stays refused; paths that do not exist answer 404 in the protocol shape', async () => {
    const key = auth['authorization']!.slice(7);
    const query = await call('POST', `/v1beta/models/local/echo/chat:generateContent?key=${key}`, {
      body: { contents: [{ role: 'user', parts: [{ text: 'x' }] }] },
    });
    expect(query.status).toBe(401);
    const embeddings = await app.call('POST', '/v1/embeddings', { headers: auth, body: { input: 'x' } });
    expect(embeddings.status).toBe(404);
    expect(embeddings.json).toMatchObject({ error: { type: 'not_found_error' } });
  });

  it('a whole answer running past TEXT_KEEPALIVE_MS is held open with whitespace, then the JSON body', async () => {
    const reply = await call('POST', '/v1/chat/completions', {
      headers: auth,
      body: { model: 'local/echo/chat', messages: [{ role: 'user', content: 'slow [[delay_ms:900]] one' }] },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-service-keepalive')).toBe('1');
    expect(reply.text).toMatch(/^ +\{/);
    expect(JSON.parse(reply.text)).toMatchObject({ choices: [{ message: { content: 'Echo: slow one' } }] });
    const quick = await call('POST', '/v1/chat/completions', {
      headers: auth,
      body: { model: 'local/echo/chat', messages: [{ role: 'user', content: 'quick' }] },
    });
    expect(quick.headers.get('x-service-keepalive')).toBeNull();
    expect(quick.text.startsWith('{')).toBe(true);
  });

  it('a failure after the keep-alive started is an error object inside the 200 body', async () => {
    const reply = await call('POST', '/v1/chat/completions', {
      headers: auth,
      body: {
        model: 'local/echo/chat',
        messages: [
          { role: 'user', content: 'slow [[delay_ms:900]] then [[simulate:stream_cut]] it breaks here' },
        ],
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-service-keepalive')).toBe('1');
    expect(JSON.parse(reply.text)).toMatchObject({ error: { code: 'upstream_failed' } });
  });

  it('multipart is taken on /v1/videos only; a file part there is refused by name', async () => {
    const boundary = 'xYzBoundary';
    const form = (parts: string[]) =>
      parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('') + `--${boundary}--\r\n`;
    const headers = { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` };
    const chat = await call('POST', '/v1/chat/completions', {
      headers,
      rawBody: form(['Content-Disposition: form-data; name="model"\r\n\r\nlocal/echo/chat']),
    });
    expect(chat.status).toBe(400);
    expect(chat.json).toMatchObject({ error: { type: 'invalid_request_error' } });
    const file = await call('POST', '/v1/videos', {
      headers,
      rawBody: form([
        'Content-Disposition: form-data; name="model"\r\n\r\nlocal/reel',
        'Content-Disposition: form-data; name="prompt"\r\n\r\na reel',
        'Content-Disposition: form-data; name="input_reference"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nPNG',
      ]),
    });
    expect(file.status).toBe(400);
    expect(file.json).toMatchObject({ error: { code: 'unsupported_parameter', param: 'input_reference' } });
  });

  it('a refused parameter names its protocol path; the task never exists', async () => {
    const reply = await call('POST', '/v1/messages', {
      headers: auth,
      body: {
        model: 'local/echo/chat',
        max_tokens: 10,
        messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'text', data: 'x' } }] }],
      },
    });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(reply.headers.get('x-service-task-id')).toBeNull();
  });
});
