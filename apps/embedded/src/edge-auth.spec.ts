import { startEmbedded, type Embedded } from './testing/embedded-harness';

describe('edge: API key authentication on /api/v1', () => {
  let app: Embedded;
  beforeAll(async () => {
    app = await startEmbedded();
  });
  afterAll(() => app.close());

  const credit = (headers: Record<string, string>, query = '') =>
    app.call('GET', `/api/v1/chat/credit${query}`, { headers });

  function expectUnauthorized(reply: {
    status: number;
    json: Record<string, unknown>;
    headers: Headers;
  }): void {
    expect(reply.status).toBe(401);
    expect(reply.json['code']).toBe(401);
    expect(reply.json).not.toHaveProperty('data');
    expect(reply.json['request_id']).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(reply.headers.get('x-request-id')).toBe(reply.json['request_id']);
    expect(reply.headers.get('content-language')).toBe('en');
  }

  it('accepts the bootstrap key as a Bearer token and answers in the envelope', async () => {
    const reply = await credit({ authorization: `Bearer ${app.boot.apiKey}` });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      code: 200,
      msg: 'success',
      data: {
        currency: 'USD',
        available: '25',
        held: '0',
        total: '25',
        sources: { wallet: '25', credit: '0', grants: [] },
      },
      request_id: expect.stringMatching(/^req_/),
    });
    expect(reply.headers.get('x-request-id')).toBe(reply.json['request_id']);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.headers.get('x-ratelimit-limit')).toBe('120');
    expect(Number(reply.headers.get('x-ratelimit-remaining'))).toBeLessThan(120);
  });

  it('refuses a request without a key', async () => {
    const reply = await credit({});
    expectUnauthorized(reply);
    expect(reply.json['msg']).toContain('Authorization: Bearer');
  });

  it('refuses a malformed key and an unknown well-formed key alike', async () => {
    expectUnauthorized(await credit({ authorization: 'Bearer not-a-key' }));
    const forged = app.boot.apiKey.slice(0, -4) + 'AAAA';
    const reply = await credit({ authorization: `Bearer ${forged}` });
    expectUnauthorized(reply);
    expect(reply.json['msg']).toBe('Invalid API key.');
  });

  it('refuses any scheme other than Bearer, and x-api-key on the native API', async () => {
    expectUnauthorized(
      await credit({ authorization: `Basic ${Buffer.from(`u:${app.boot.apiKey}`).toString('base64')}` }),
    );
    expectUnauthorized(await credit({ authorization: app.boot.apiKey }));
    expectUnauthorized(await credit({ 'x-api-key': app.boot.apiKey }));
  });

  it('never accepts a key in the query string, even beside a valid header', async () => {
    const alone = await credit({}, `?key=${app.boot.apiKey}`);
    expectUnauthorized(alone);
    expect(alone.json['msg']).toContain('never accepted in the URL');
    expectUnauthorized(
      await credit({ authorization: `Bearer ${app.boot.apiKey}` }, `?api_key=${app.boot.apiKey}`),
    );
    expectUnauthorized(await credit({ authorization: `Bearer ${app.boot.apiKey}` }, `?x=${app.boot.apiKey}`));
  });

  it('refuses a revoked key within one second, and the key stays revoked', async () => {
    const { accountId } = await app.admin('POST', '/admin/v1/accounts', { name: 'revocation', credit: '1' });
    const { apiKey, keyId } = (await app.admin(
      'POST',
      `/admin/v1/accounts/${accountId as string}/keys`,
      {},
    )) as { apiKey: string; keyId: string };
    expect((await credit({ authorization: `Bearer ${apiKey}` })).status).toBe(200);
    const revoked = await app.admin('POST', `/admin/v1/keys/${keyId}/revoke`);
    expect(revoked).toEqual({ keyId, revoked: true });
    // What is promised: a request that starts more than a second (KEY_CACHE_TTL_MS) after the revocation is
    // refused. Measured from each request's start, so a slow machine's response times do not count.
    const revokedAt = Date.now();
    let status = 200;
    let lastAcceptedStart = -1;
    while (status === 200 && Date.now() - revokedAt < 5000) {
      const start = Date.now() - revokedAt;
      status = (await credit({ authorization: `Bearer ${apiKey}` })).status;
      if (status === 200) {
        lastAcceptedStart = start;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    expect(status).toBe(401);
    expect(lastAcceptedStart).toBeLessThanOrEqual(1000);
    // Other keys of the platform are unaffected.
    expect((await credit({ authorization: `Bearer ${app.boot.apiKey}` })).status).toBe(200);
  });

  it('never writes a key into the logs', async () => {
    await credit({ authorization: `Bearer ${app.boot.apiKey}` }, `?key=${app.boot.apiKey}`);
    await credit({ authorization: `Bearer ${app.boot.apiKey}` });
    const secret = app.boot.apiKey.split('_').pop()!;
    expect(app.logs.length).toBeGreaterThan(0);
    expect(app.logs.filter((line) => line.includes(secret))).toEqual([]);
    const access = app.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l['msg'] === 'request completed');
    expect(access.length).toBeGreaterThan(0);
    for (const line of access) expect(line['request_id']).toMatch(/^req_/);
  });
});
