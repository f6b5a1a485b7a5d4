import { OpenApiCheck } from '@gen/testing';
import sharp from 'sharp';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

describe('the OpenAPI document agrees with what the service does', () => {
  let app: Embedded;
  let doc: Record<string, unknown>;
  let openApi: OpenApiCheck;
  const seen = new Set<string>();

  async function checked(
    method: string,
    path: string,
    options: Parameters<Embedded['call']>[2] = {},
  ): Promise<Reply> {
    const reply = await app.call(method, path, options);
    openApi.check(method, path, reply.status, reply.headers, reply.json);
    seen.add(`${method.toLowerCase()} ${openApi.templateOf(path)!}`);
    return reply;
  }

  beforeAll(async () => {
    app = await startEmbedded();
    const reply = await app.call('GET', '/openapi.json');
    expect(reply.status).toBe(200);
    doc = reply.json;
    openApi = new OpenApiCheck(doc);
  });
  afterAll(() => app.close());

  it('is OpenAPI 3.1 with contract version 1.0.0', () => {
    expect(doc['openapi']).toBe('3.1.0');
    expect((doc['info'] as Record<string, unknown>)['version']).toBe('1.0.0');
  });

  it('describes the system, native and admin answers as they are', async () => {
    const auth = { authorization: `Bearer ${app.boot.apiKey}` };
    const admin = { authorization: `Bearer ${app.boot.adminToken}` };
    await checked('GET', '/healthz');
    await checked('GET', '/readyz');
    await checked('GET', '/api/v1/chat/credit', { headers: auth });
    await checked('GET', '/api/v1/chat/credit');
    await checked('GET', '/api/v1/chat/credit?x=1', { headers: auth });
    const created = await checked('POST', '/admin/v1/accounts', {
      headers: admin,
      body: { name: 'doc', credit: '1.5', language: 'ko' },
    });
    const accountId = (created.json['data'] as { accountId: string }).accountId;
    await checked('POST', '/admin/v1/accounts', { headers: admin, body: { name: 'doc', extra: 1 } });
    await checked('POST', '/admin/v1/accounts', {
      headers: { authorization: 'Bearer wrong' },
      body: { name: 'doc' },
    });
    await checked('GET', `/admin/v1/accounts/${accountId}`, { headers: admin });
    await checked('GET', '/admin/v1/accounts/acc_01J0000000000000000000000Z', { headers: admin });
    await checked('GET', '/admin/v1/accounts/acc_missing', { headers: admin });
    await checked('PATCH', `/admin/v1/accounts/${accountId}`, { headers: admin, body: { group: 'default' } });
    const key = await checked('POST', `/admin/v1/accounts/${accountId}/keys`, {
      headers: admin,
      body: { name: 'k', dailyCap: '2.5' },
    });
    const keyId = (key.json['data'] as { keyId: string }).keyId;
    await checked('GET', `/admin/v1/accounts/${accountId}/keys`, { headers: admin });
    await checked('PATCH', `/admin/v1/keys/${keyId}`, { headers: admin, body: { dailyCap: '3' } });
    await checked('POST', `/admin/v1/keys/${keyId}/revoke`, { headers: admin });
    await checked('POST', `/admin/v1/accounts/${accountId}/signing-secret/rotate`, { headers: admin });
    const session = await checked('POST', `/admin/v1/accounts/${accountId}/console-tokens`, {
      headers: admin,
    });
    const consoleToken = (session.json['data'] as { token: string }).token;
    const me = await checked('GET', '/console/v1/session', {
      headers: { authorization: `Bearer ${consoleToken}` },
    });
    expect(me.json['data']).toEqual({ accountId, language: 'ko', expiresAt: expect.any(String) });
    await checked('GET', '/console/v1/session', { headers: { authorization: `Bearer ${app.boot.apiKey}` } });
    await checked('GET', '/console/v1/session');
    await checked('GET', '/admin/v1/groups', { headers: admin });
    await checked('PUT', '/admin/v1/groups/pro', { headers: admin, body: { multiplier: '0.8' } });
    await checked('POST', `/admin/v1/accounts/${accountId}/credits`, {
      headers: admin,
      body: { amount: '2', kind: 'promo' },
    });
    await checked('POST', `/admin/v1/accounts/${accountId}/credits`, {
      headers: admin,
      body: { amount: '2', kind: 'grant' },
    });
  });

  it('describes the model catalog as it answers', async () => {
    const auth = { authorization: `Bearer ${app.boot.apiKey}` };
    await checked('GET', '/api/v1/models?includeSchema=1&includeExamples=true', { headers: auth });
    await checked('GET', '/api/v1/models?modality=audio', { headers: auth });
    await checked('GET', '/api/v1/models?foo=1', { headers: auth });
    await checked('GET', '/api/v1/models');
    await checked('GET', '/api/v1/models/local%2Fsketch', { headers: auth });
    await checked('GET', '/api/v1/models/local%2Fnothing', { headers: auth });
    await checked('GET', '/console/v1/catalog/models?modality=image');
    await checked('GET', '/console/v1/catalog/models?modality=smell');
    await checked('GET', '/v1/models', { headers: auth });
    await checked('GET', '/v1/models?modality=smell', { headers: auth });
    await checked('GET', '/v1/models');
  });

  it('describes the task endpoints as they answer', async () => {
    const auth = { authorization: `Bearer ${app.boot.apiKey}` };
    const body = { model: 'local/sketch', input: { prompt: 'doc', width: 64, height: 64 } };
    const text = { model: 'local/echo/chat', input: { messages: [{ role: 'user', content: 'doc' }] } };
    const streamed = await checked('POST', '/api/v1/jobs/stream', { headers: auth, body: text });
    expect(streamed.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await checked('POST', '/api/v1/jobs/stream', { headers: auth, body });
    const quote = await checked('POST', '/api/v1/jobs/quote', { headers: auth, body });
    const { quoteId, price } = quote.json['data'] as { quoteId: string; price: string };
    await checked('POST', '/api/v1/jobs/quote', { headers: auth, body: { ...body, input: { nope: 1 } } });
    const created = await checked('POST', '/api/v1/jobs/createTask', {
      headers: { ...auth, 'idempotency-key': 'doc-1' },
      body: { ...body, quoteId, expectedCost: price },
    });
    expect(created.status).toBe(202);
    await checked('POST', '/api/v1/jobs/createTask', { headers: auth, body: { ...body, expectedCost: '1' } });
    await checked('POST', '/api/v1/jobs/createTask', {
      headers: auth,
      body: { model: 'local/none', input: {} },
    });
    const taskId = (created.json['data'] as { taskId: string }).taskId;
    for (let i = 0; i < 200; i += 1) {
      const reply = await checked('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth });
      if ((reply.json['data'] as { settled: boolean }).settled) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await checked('GET', '/api/v1/jobs/recordInfo?taskId=job_01J0000000000000000000000Z', { headers: auth });
    await checked('POST', '/api/v1/jobs/retry', { headers: auth, body: { taskId } });
    const failed = await checked('POST', '/api/v1/jobs/createTask', {
      headers: auth,
      body: { ...body, input: { ...body.input, simulate: 'upstream_failed' } },
    });
    const failedId = (failed.json['data'] as { taskId: string }).taskId;
    for (let i = 0; i < 200; i += 1) {
      const reply = await checked('GET', `/api/v1/jobs/recordInfo?taskId=${failedId}`, { headers: auth });
      if ((reply.json['data'] as { state: string }).state === 'failed') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await checked('POST', '/api/v1/jobs/retry', { headers: auth, body: { taskId: failedId } });
    const download = '/api/v1/common/download-url';
    expect((await checked('POST', download, { headers: auth, body: { taskId } })).status).toBe(200);
    await checked('POST', download, { headers: auth, body: { taskId, key: `outputs/${taskId}/9.png` } });
    await checked('POST', download, { headers: auth, body: { taskId: failedId } });
    await checked('POST', download, { headers: auth, body: { taskId, nope: 1 } });
    await checked('POST', download, { body: { taskId } });
    await checked('POST', '/api/v1/jobs/purge', { headers: auth, body: { taskId } });
    expect((await checked('POST', download, { headers: auth, body: { taskId } })).status).toBe(404);
    await checked('POST', '/api/v1/jobs/purge', {
      headers: auth,
      body: { taskId: 'job_01J0000000000000000000000Z' },
    });
    await checked('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth });
    const page = await checked('GET', '/api/v1/jobs?limit=1', { headers: auth });
    const cursor = (page.json['data'] as { nextCursor: string }).nextCursor;
    await checked('GET', `/api/v1/jobs?limit=1&cursor=${cursor}`, { headers: auth });
    await checked('GET', '/api/v1/jobs?limit=0', { headers: auth });
    await checked('GET', '/api/v1/usage', { headers: auth });
    await checked('GET', '/api/v1/usage?from=2026-01-01&to=2026-12-31', { headers: auth });
    const admin = { authorization: `Bearer ${app.boot.adminToken}` };
    await checked('GET', `/admin/v1/webhook-deliveries?taskId=${taskId}`, { headers: admin });
    await checked('GET', '/admin/v1/webhook-deliveries', { headers: admin });
    await checked('POST', '/admin/v1/webhook-deliveries/whd_01J0000000000000000000000Z/redeliver', {
      headers: admin,
    });
  });

  it('describes the account-level webhook endpoints as they answer', async () => {
    const admin = { authorization: `Bearer ${app.boot.adminToken}` };
    const session = await app.call('POST', `/admin/v1/accounts/${app.boot.accountId}/console-tokens`, {
      headers: admin,
    });
    const console = { authorization: `Bearer ${(session.json['data'] as { token: string }).token}` };
    const created = await checked('POST', '/console/v1/webhook-endpoints', {
      headers: console,
      body: { url: 'https://93.184.216.34/hooks', enabledEvents: ['task.completed'], description: 'doc' },
    });
    expect(created.status).toBe(200);
    const id = (created.json['data'] as { id: string }).id;
    await checked('POST', '/console/v1/webhook-endpoints', {
      headers: console,
      body: { url: 'http://127.0.0.1/hooks', enabledEvents: ['task.*'] },
    });
    await checked('GET', '/console/v1/webhook-endpoints', { headers: console });
    await checked('GET', `/console/v1/webhook-endpoints/${id}`, { headers: console });
    await checked('GET', '/console/v1/webhook-endpoints/whe_01J0000000000000000000000Z', {
      headers: console,
    });
    await checked('PATCH', `/console/v1/webhook-endpoints/${id}`, {
      headers: console,
      body: { enabled: false },
    });
    await checked('POST', `/console/v1/webhook-endpoints/${id}/rotate-secret`, {
      headers: console,
      body: { gracePeriodSeconds: 60 },
    });
    await checked('GET', '/console/v1/webhook-events', { headers: console });
    await checked('GET', '/console/v1/webhook-events');
  });

  it("describes the web console's routes as they answer, with the cookie and with a bearer token", async () => {
    const admin = { authorization: `Bearer ${app.boot.adminToken}` };
    const accountId = app.boot.accountId;
    const link = await checked('POST', `/admin/v1/accounts/${accountId}/console-links`, { headers: admin });
    await checked('POST', '/admin/v1/accounts/acc_01J0000000000000000000000Z/console-links', {
      headers: admin,
    });
    const token = new URL((link.json['data'] as { url: string }).url).hash.slice('#token='.length);
    const signedIn = await checked('POST', '/console/v1/sign-in', { body: { token } });
    await checked('POST', '/console/v1/sign-in', { body: { token } });
    await checked('POST', '/console/v1/sign-in', { body: { token: 1 } });
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const csrf = (signedIn.json['data'] as { csrfToken: string }).csrfToken;
    const browser = { cookie, 'x-csrf-token': csrf };
    await checked('GET', '/console/v1/session', { headers: { cookie } });

    const keys = await checked('GET', '/console/v1/keys', { headers: browser });
    await checked('GET', '/console/v1/keys?x=1', { headers: browser });
    const created = await checked('POST', '/console/v1/keys', { headers: browser, body: { name: 'doc' } });
    await checked('POST', '/console/v1/keys', { headers: { cookie }, body: { name: 'doc' } });
    const keyId = (created.json['data'] as { keyId: string }).keyId;
    await checked('PATCH', `/console/v1/keys/${keyId}`, { headers: browser, body: { dailyCap: null } });
    await checked('PATCH', '/console/v1/keys/key_0000000000000000', {
      headers: browser,
      body: { name: 'x' },
    });
    await checked('POST', `/console/v1/keys/${keyId}/revoke`, { headers: browser });
    await checked('POST', '/console/v1/keys/key_0000000000000000/revoke', { headers: browser });
    await checked('POST', '/console/v1/signing-secret/rotate', { headers: browser });
    await checked('POST', '/console/v1/signing-secret/rotate', { headers: { cookie } });
    expect((keys.json['data'] as { items: unknown[] }).items.length).toBeGreaterThan(0);

    await checked('GET', '/console/v1/balance', { headers: browser });
    await checked('GET', '/console/v1/balance');
    await checked('GET', '/console/v1/usage', { headers: browser });
    await checked('GET', '/console/v1/usage?from=2026-01-01&to=2026-12-31', { headers: browser });
    const tasks = await checked('GET', '/console/v1/tasks?limit=5', { headers: browser });
    await checked('GET', '/console/v1/tasks?limit=0', { headers: browser });
    const taskId = String((tasks.json['data'] as { items: { taskId: string }[] }).items[0]!.taskId);
    await checked('GET', `/console/v1/tasks/${taskId}`, { headers: browser });
    await checked('GET', '/console/v1/tasks/job_01J0000000000000000000000Z', { headers: browser });
    await checked('GET', `/console/v1/webhook-deliveries?taskId=${taskId}`, { headers: browser });
    await checked('GET', '/console/v1/tasks/job_x/webhooks', { headers: browser });
    await checked('POST', '/console/v1/webhook-deliveries/whd_01J0000000000000000000000Z/redeliver', {
      headers: browser,
    });
    await checked('POST', '/console/v1/webhook-deliveries/whd_01J0000000000000000000000Z/redeliver', {
      headers: { cookie },
    });
    const endpoints = await checked('GET', '/console/v1/webhook-endpoints', { headers: browser });
    const endpointId = String((endpoints.json['data'] as { items: { id: string }[] }).items[0]!.id);
    await checked('GET', `/console/v1/webhook-endpoints/${endpointId}/messages`, { headers: browser });
    await checked('GET', '/console/v1/webhook-endpoints/whe_01J0000000000000000000000Z/messages', {
      headers: browser,
    });
    await checked('POST', '/console/v1/sign-out', { headers: { cookie } });
    await checked('POST', '/console/v1/sign-out', { headers: browser });
    await checked('POST', '/console/v1/sign-out', { headers: browser });
  });

  it('describes the compatibility endpoints as they answer, in each protocol’s own shapes', async () => {
    // A key of its own: its own rate bucket and balance.
    const { accountId } = await app.admin('POST', '/admin/v1/accounts', { name: 'compat-doc', credit: '5' });
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    const bearer = { authorization: `Bearer ${apiKey}` };
    const wrong = { authorization: 'Bearer gts_wrong' };
    const model = 'local/echo/chat';
    const messages = [{ role: 'user', content: 'doc words' }];
    const stream = 'text/event-stream; charset=utf-8';

    const whole = await checked('POST', '/v1/chat/completions', {
      headers: bearer,
      body: { model, messages, temperature: 5, user: 'someone' },
    });
    expect(whole.status).toBe(200);
    expect(whole.json['id']).toBe(`chatcmpl-${whole.headers.get('x-request-id')!}`);
    // The optional headers were there to be checked against their schemas.
    expect(whole.headers.get('x-service-ignored-params')).toBe('user');
    expect(whole.headers.get('x-service-adjusted-params')).toBe('temperature=2');
    const streamed = await checked('POST', '/v1/chat/completions', {
      headers: bearer,
      body: { model, messages, stream: true },
    });
    expect([streamed.status, streamed.headers.get('content-type')]).toEqual([200, stream]);
    const refused = await checked('POST', '/v1/chat/completions', {
      headers: bearer,
      body: { model, messages, logprobs: true },
    });
    expect([refused.status, refused.json['error']]).toMatchObject([
      400,
      { code: 'unsupported_parameter', param: 'logprobs' },
    ]);
    expect(
      (await checked('POST', '/v1/chat/completions', { headers: wrong, body: { model, messages } })).status,
    ).toBe(401);

    const responses = { model, input: 'doc words' };
    expect((await checked('POST', '/v1/responses', { headers: bearer, body: responses })).status).toBe(200);
    const responsesStream = await checked('POST', '/v1/responses', {
      headers: { 'x-api-key': apiKey },
      body: { ...responses, stream: true },
    });
    expect([responsesStream.status, responsesStream.headers.get('content-type')]).toEqual([200, stream]);
    const previous = await checked('POST', '/v1/responses', {
      headers: bearer,
      body: { ...responses, previous_response_id: 'resp_1' },
    });
    expect([previous.status, (previous.json['error'] as Record<string, unknown>)['param']]).toEqual([
      400,
      'previous_response_id',
    ]);
    expect((await checked('POST', '/v1/responses', { headers: wrong, body: responses })).status).toBe(401);

    const anthropic = { 'x-api-key': apiKey };
    const message = { model, max_tokens: 50, messages };
    const answered = await checked('POST', '/v1/messages', { headers: anthropic, body: message });
    expect([answered.status, answered.json['type']]).toEqual([200, 'message']);
    const messageStream = await checked('POST', '/v1/messages', {
      headers: anthropic,
      body: { ...message, stream: true },
    });
    expect([messageStream.status, messageStream.headers.get('content-type')]).toEqual([200, stream]);
    const noMax = await checked('POST', '/v1/messages', { headers: anthropic, body: { model, messages } });
    expect([noMax.status, noMax.json['type']]).toEqual([400, 'error']);
    const anonymous = await checked('POST', '/v1/messages', { body: message });
    expect([anonymous.status, anonymous.json['error']]).toMatchObject([
      401,
      { type: 'authentication_error' },
    ]);

    const google = { 'x-goog-api-key': apiKey };
    const contents = { contents: [{ role: 'user', parts: [{ text: 'doc words' }] }] };
    const generate = `/v1beta/models/${encodeURIComponent(model)}:generateContent`;
    const generated = await checked('POST', generate, { headers: google, body: contents });
    expect(generated.status).toBe(200);
    const cached = await checked('POST', generate, {
      headers: google,
      body: { ...contents, cachedContent: 'c/1' },
    });
    expect([cached.status, cached.json['error']]).toMatchObject([
      400,
      { code: 400, status: 'INVALID_ARGUMENT' },
    ]);
    const inQuery = await checked('POST', `${generate}?key=${apiKey}`, { headers: google, body: contents });
    expect([inQuery.status, inQuery.json['error']]).toMatchObject([401, { status: 'UNAUTHENTICATED' }]);
    const streamGenerate = `/v1beta/models/${encodeURIComponent(model)}:streamGenerateContent`;
    const sse = await checked('POST', `${streamGenerate}?alt=sse`, { headers: google, body: contents });
    expect([sse.status, sse.headers.get('content-type')]).toEqual([200, stream]);
    const array = await checked('POST', streamGenerate, { headers: bearer, body: contents });
    expect([array.status, array.headers.get('content-type'), Array.isArray(array.json)]).toEqual([
      200,
      'application/json; charset=utf-8',
      true,
    ]);
    const noContents = await checked('POST', streamGenerate, { headers: google, body: {} });
    expect(noContents.status).toBe(400);
    expect((await checked('POST', streamGenerate, { headers: wrong, body: contents })).status).toBe(401);
    // The same two under /v1/models/ (where @google/genai 3.x calls them by default), errors in Google's shape.
    const v1Generate = `/v1/models/${model}:generateContent`;
    const v1Generated = await checked('POST', v1Generate, { headers: google, body: contents });
    expect([v1Generated.status, Boolean(v1Generated.json['candidates'])]).toEqual([200, true]);
    const v1Unknown = await checked('POST', '/v1/models/nobody/none/chat:generateContent', {
      headers: google,
      body: contents,
    });
    expect([v1Unknown.status, v1Unknown.json['error']]).toMatchObject([
      404,
      { code: 404, status: 'NOT_FOUND' },
    ]);
    const v1Stream = `/v1/models/${encodeURIComponent(model)}:streamGenerateContent`;
    const v1Sse = await checked('POST', `${v1Stream}?alt=sse`, { headers: google, body: contents });
    expect([v1Sse.status, v1Sse.headers.get('content-type')]).toEqual([200, stream]);
    const v1Array = await checked('POST', v1Stream, { headers: bearer, body: contents });
    expect([v1Array.status, Array.isArray(v1Array.json)]).toEqual([200, true]);
    const v1Wrong = await checked('POST', v1Stream, { headers: wrong, body: contents });
    expect([v1Wrong.status, v1Wrong.json['error']]).toMatchObject([401, { status: 'UNAUTHENTICATED' }]);

    const video = await checked('POST', '/v1/videos', {
      headers: bearer,
      body: { model: 'local/reel', prompt: 'a doc reel', seconds: '4', size: '320x240' },
    });
    expect(video.status).toBe(200);
    const id = video.json['id'] as string;
    expect(id).toBe(video.headers.get('x-service-task-id'));
    const notVideo = await checked('POST', '/v1/videos', {
      headers: bearer,
      body: { model: 'local/sketch', prompt: 'x' },
    });
    expect([notVideo.status, notVideo.json['error']]).toMatchObject([400, { param: 'model' }]);
    expect(
      (await checked('POST', '/v1/videos', { headers: wrong, body: { model: 'local/reel', prompt: 'x' } }))
        .status,
    ).toBe(401);
    const content = `/v1/videos/${id}/content`;
    const redirected = async () => {
      const response = await fetch(`${app.baseUrl}${content}`, { headers: bearer, redirect: 'manual' });
      const text = await response.text();
      const reply: Reply = {
        status: response.status,
        headers: response.headers,
        text,
        json: text ? (JSON.parse(text) as Reply['json']) : {},
      };
      openApi.check('GET', content, reply.status, reply.headers, reply.json);
      seen.add(`get ${openApi.templateOf(content)!}`);
      return reply;
    };
    let status = '';
    for (let i = 0; i < 400 && status !== 'completed'; i += 1) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      const polled = await checked('GET', `/v1/videos/${id}`, { headers: bearer });
      status = polled.json['status'] as string;
      if (status !== 'completed') expect((await redirected()).status).toBe(404);
    }
    expect(status).toBe('completed');
    const file = await redirected();
    expect([file.status, Boolean(file.headers.get('location'))]).toEqual([302, true]);
    const unknown = await checked('GET', '/v1/videos/job_01J0000000000000000000000Z', { headers: bearer });
    expect([unknown.status, unknown.json['error']]).toMatchObject([404, { type: 'not_found_error' }]);
    expect((await checked('GET', `/v1/videos/${id}`, { headers: wrong })).status).toBe(401);
    expect((await checked('GET', content, { headers: wrong })).status).toBe(401);
    expect(
      (await checked('GET', '/v1/videos/job_01J0000000000000000000000Z/content', { headers: bearer })).status,
    ).toBe(404);
  });

  it('describes the media routes as they answer', async () => {
    const auth = { authorization: `Bearer ${app.boot.apiKey}` };
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    const ticket = await checked('POST', '/api/v1/common/upload-url', {
      headers: auth,
      body: { fileName: 'doc.png', contentType: 'image/png', bytes: png.length },
    });
    const { fileId, uploadUrl } = ticket.json['data'] as { fileId: string; uploadUrl: string };
    await checked('POST', '/api/v1/common/upload-url', {
      headers: auth,
      body: { fileName: 'doc.png', contentType: 'image/png', bytes: 11 * 1024 * 1024 },
    });
    await checked('POST', `/api/v1/files/${fileId}/commit`, { headers: auth });
    await fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: png });
    const committed = await checked('POST', `/api/v1/files/${fileId}/commit`, { headers: auth });
    expect(committed.status).toBe(200);
    await checked('POST', '/api/v1/files/fil_01J0000000000000000000000Z/commit', { headers: auth });
    await checked('POST', '/api/v1/files/import', { headers: auth, body: { url: 'http://127.0.0.1/a.png' } });

    // The asset library and the characters, over the file just committed.
    const { uri } = committed.json['data'] as { uri: string };
    const admin = { authorization: `Bearer ${app.boot.adminToken}` };
    const saved = await checked('POST', '/api/v1/assets', {
      headers: { ...auth, 'idempotency-key': 'doc-1' },
      body: { uri, name: 'doc' },
    });
    expect(saved.status).toBe(200);
    const { assetId } = saved.json['data'] as { assetId: string };
    await checked('POST', '/api/v1/assets', { headers: auth, body: { uri } }); // no Idempotency-Key: 400
    await checked('GET', '/api/v1/assets?sort=name&limit=1', { headers: auth });
    await checked('GET', '/api/v1/assets/usage', { headers: auth });
    await checked('GET', `/api/v1/assets/${assetId}`, { headers: auth });
    await checked('PATCH', `/api/v1/assets/${assetId}`, { headers: auth, body: { favorite: true } });
    const limits = `/admin/v1/accounts/${app.boot.accountId}/asset-limits`;
    const entities = `/admin/v1/accounts/${app.boot.accountId}/asset-entities`;
    await checked('GET', limits, { headers: admin });
    await checked('PUT', limits, { headers: admin, body: { plan: 'free' } });
    const entity = await checked('POST', entities, { headers: admin, body: { name: 'doc', images: [uri] } });
    const { entityId } = entity.json['data'] as { entityId: string };
    await checked('GET', entities, { headers: admin });
    await checked('GET', '/api/v1/assets/entities', { headers: auth });
    await checked('GET', `/api/v1/assets/entities/${entityId}`, { headers: auth });
    await checked('DELETE', `${entities}/${entityId}`, { headers: admin });
    expect((await checked('DELETE', `/api/v1/assets/${assetId}`, { headers: auth })).status).toBe(200);
    expect((await checked('GET', `/api/v1/assets/${assetId}`, { headers: auth })).status).toBe(404);
  });

  it("documents the 429 of the edge's admin and console buckets on every admin and console operation", () => {
    const paths = doc['paths'] as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    const limited = Object.entries(paths).filter(
      ([path]) => /^\/(admin|console)\/v1\//.test(path) && !/^\/console\/v1\/(catalog|sign-in)/.test(path),
    );
    expect(limited.length).toBeGreaterThan(30);
    for (const [path, item] of limited) {
      for (const [method, operation] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const refused = operation.responses['429'] as
          { description: string; headers: Record<string, unknown> } | undefined;
        expect([method, path, refused?.headers]).toEqual([
          method,
          path,
          expect.objectContaining({ 'Retry-After': expect.anything() }),
        ]);
        expect(refused!.description).toContain('Per source address: ');
        if (path.startsWith('/console/') && method !== 'get')
          expect(refused!.description).toContain('Per console session: 30 POST, PUT, PATCH and DELETE calls');
      }
    }
  });

  it('has no operation the service does not answer', () => {
    const documented = Object.entries(doc['paths'] as Record<string, Record<string, unknown>>).flatMap(
      ([path, item]) =>
        Object.keys(item)
          .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
          .map((m) => `${m} ${path}`),
    );
    expect(documented.filter((op) => !seen.has(op) && op !== 'get /openapi.json')).toEqual([]);
  });
});
