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
    expect(me.json['data']).toEqual({ accountId, language: 'ko' });
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
    await checked('POST', '/api/v1/jobs/purge', { headers: auth, body: { taskId } });
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
    expect((await checked('POST', `/api/v1/files/${fileId}/commit`, { headers: auth })).status).toBe(200);
    await checked('POST', '/api/v1/files/fil_01J0000000000000000000000Z/commit', { headers: auth });
    await checked('POST', '/api/v1/files/import', { headers: auth, body: { url: 'http://127.0.0.1/a.png' } });
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
