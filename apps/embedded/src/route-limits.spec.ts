import { OpenApiCheck } from '@gen/testing';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

/**
 * The admin and console routes' own rate limits, with the default settings: per source address on `/admin/v1`
 * (and fewer failed admin-token attempts) and `/console/v1`, per console session on the console's writes.
 * The app trusts the test as its ingress, so that each test is a client address of its own.
 */
describe('the rate limits of the admin and console routes', () => {
  let app: Embedded;
  let openApi: OpenApiCheck;
  beforeAll(async () => {
    app = await startEmbedded({ LOG_LEVEL: 'silent', TRUSTED_PROXIES: '127.0.0.1, ::1' });
    openApi = new OpenApiCheck((await app.call('GET', '/openapi.json')).json);
  });
  afterAll(() => app.close());

  const from = (address: string, headers: Record<string, string> = {}) => ({
    ...headers,
    'x-forwarded-for': address,
  });
  const admin = (address: string, token: string, path = '/admin/v1/groups') =>
    app.call('GET', path, { headers: from(address, { authorization: `Bearer ${token}` }) });

  /** A 429 in the native envelope, with Retry-After, as the OpenAPI document describes the operation's. */
  function expectRateLimited(reply: Reply, method: string, path: string): void {
    expect(reply.status).toBe(429);
    openApi.check(method, path, reply.status, reply.headers, reply.json);
    const seconds = reply.headers.get('retry-after');
    expect(seconds).toMatch(/^[1-9]\d*$/);
    expect(reply.headers.get('content-language')).toBe('en');
    expect(reply.json).toEqual({
      code: 429,
      msg: `Too many requests. Retry after ${seconds} seconds.`,
      request_id: expect.stringMatching(/^req_/),
    });
  }

  async function signIn(accountId: string, address: string): Promise<{ cookie: string; csrfToken: string }> {
    const link = await app.call('POST', `/admin/v1/accounts/${accountId}/console-links`, {
      headers: from(address, { authorization: `Bearer ${app.boot.adminToken}` }),
    });
    const { url } = link.json['data'] as { url: string };
    const token = url.slice(url.indexOf('#token=') + '#token='.length);
    const reply = await app.call('POST', '/console/v1/sign-in', { headers: from(address), body: { token } });
    expect(reply.status).toBe(200);
    return {
      cookie: reply.headers.get('set-cookie')!.split(';')[0]!,
      csrfToken: (reply.json['data'] as { csrfToken: string }).csrfToken,
    };
  }

  it('answers 429 after 10 wrong admin tokens from one address, even to the right one; other addresses pass', async () => {
    for (let i = 0; i < 10; i += 1) {
      const wrong = await admin('203.0.113.10', `gadm_wrong${i}`);
      expect(wrong.status).toBe(401);
    }
    const refused = await admin('203.0.113.10', 'gadm_wrong10');
    expectRateLimited(refused, 'GET', '/admin/v1/groups');
    // One failed attempt refills every 6 seconds.
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(6);
    expectRateLimited(await admin('203.0.113.10', app.boot.adminToken), 'GET', '/admin/v1/groups');
    expect((await admin('203.0.113.11', app.boot.adminToken)).status).toBe(200);
  });

  /** `count` calls at once: their replies and how many were allowed. */
  async function atOnce(count: number, call: () => Promise<Reply>) {
    const replies = await Promise.all(Array.from({ length: count }, call));
    return { replies, ok: replies.filter((r) => r.status === 200).length };
  }

  /** Tokens a bucket refilling 300 a minute (both defaults) gained since `started`. */
  const refilledSince = (started: number): number => Math.ceil(((Date.now() - started) * 300) / 60_000);

  it('limits admin requests per address: a burst of 120 (refilling 300 a minute), then 429', async () => {
    const started = Date.now();
    const { replies, ok } = await atOnce(160, () => admin('203.0.113.20', app.boot.adminToken));
    expect(ok).toBeGreaterThanOrEqual(120);
    expect(ok).toBeLessThanOrEqual(120 + refilledSince(started));
    for (const reply of replies)
      if (reply.status !== 200) expectRateLimited(reply, 'GET', '/admin/v1/groups');
    expect((await admin('203.0.113.21', app.boot.adminToken)).status).toBe(200);
  });

  it('lets one console session create 30 keys at once, then answers 429; its other calls and other sessions go on', async () => {
    const account = await app.admin('POST', '/admin/v1/accounts', { name: 'burst', credit: '1' });
    const accountId = account['accountId'] as string;
    const browser = await signIn(accountId, '203.0.113.30');
    const create = (session: { cookie: string; csrfToken: string }, name: string) =>
      app.call('POST', '/console/v1/keys', {
        headers: from('203.0.113.30', { cookie: session.cookie, 'x-csrf-token': session.csrfToken }),
        body: { name },
      });
    for (let i = 0; i < 30; i += 1) expect((await create(browser, `k${i}`)).status).toBe(200);
    expectRateLimited(await create(browser, 'k30'), 'POST', '/console/v1/keys');
    // Reads are not writes.
    const listed = await app.call('GET', '/console/v1/keys', {
      headers: from('203.0.113.30', { cookie: browser.cookie }),
    });
    expect(listed.status).toBe(200);
    expect((listed.json['data'] as { items: unknown[] }).items).toHaveLength(30);
    // The account's other session has its own bucket.
    const other = await signIn(accountId, '203.0.113.31');
    expect((await create(other, 'other')).status).toBe(200);
  });

  it('limits console requests per address: a burst of 120 (refilling 300 a minute), then 429, before the session is checked', async () => {
    const session = await app.call('POST', `/admin/v1/accounts/${app.boot.accountId}/console-tokens`, {
      headers: from('203.0.113.40', { authorization: `Bearer ${app.boot.adminToken}` }),
    });
    const bearer = `Bearer ${(session.json['data'] as { token: string }).token}`;
    const read = (address: string, authorization: string) =>
      app.call('GET', '/console/v1/session', { headers: from(address, { authorization }) });
    // Unknown sessions draw on the address's bucket too: 20 of its 120.
    const started = Date.now();
    for (let i = 0; i < 20; i += 1)
      expect((await read('203.0.113.41', 'Bearer gcs_unknown')).status).toBe(401);
    const { replies, ok } = await atOnce(150, () => read('203.0.113.41', bearer));
    expect(ok).toBeGreaterThanOrEqual(100);
    expect(ok).toBeLessThanOrEqual(100 + refilledSince(started));
    for (const reply of replies)
      if (reply.status !== 200) expectRateLimited(reply, 'GET', '/console/v1/session');
    expect((await read('203.0.113.42', bearer)).status).toBe(200);
    // The public catalog keeps its own bucket (30, then 60 a minute).
    const catalog = await app.call('GET', '/console/v1/catalog/models', { headers: from('203.0.113.41') });
    expect(catalog.status).toBe(200);
  });
});
