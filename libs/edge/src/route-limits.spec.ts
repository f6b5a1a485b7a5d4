import { IdPrefix, type ConsolePrincipal } from '@gen/contracts';
import { createLogger, newId } from '@gen/core';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { renderError } from './error-responder';
import { markForwarded } from './forwarded-request';
import { installEdge, type EdgeRouteLimits } from './install-edge';
import { MemoryRateLimitStore } from './rate-limit';

const ADMIN_TOKEN = 'gadm_right';

/** Small buckets, one token refilling a minute, so that a test can empty each. */
const LIMITS: EdgeRouteLimits = {
  adminPerAddress: { burst: 8, refillPerMinute: 1 },
  adminFailuresPerAddress: { burst: 3, refillPerMinute: 1 },
  consolePerAddress: { burst: 8, refillPerMinute: 1 },
  consoleWritesPerSession: { burst: 2, refillPerMinute: 1 },
};

const session = (token: string): ConsolePrincipal | null =>
  token.startsWith('gcs_')
    ? {
        accountId: 'acc_1',
        sessionId: `ses_${token.slice(4)}`,
        language: null,
        expiresAt: '2099-01-01T00:00:00.000Z',
        via: 'bearer',
      }
    : null;

describe('the rate limits of the admin and console routes (per source address, per console session)', () => {
  let server: FastifyInstance;
  const verified: string[] = [];

  beforeEach(async () => {
    const logger = createLogger('silent');
    // Every test's client is the peer of an injection: its address, given per request.
    server = Fastify({
      loggerInstance: logger as FastifyBaseLogger,
      genReqId: () => newId(IdPrefix.request),
    });
    server.setErrorHandler((error, request, reply) => {
      const response = renderError(error, request, 1024);
      void reply.status(response.status).headers(response.headers).send(response.body);
    });
    verified.length = 0;
    installEdge(server, {
      apiKeys: null,
      consoleSessions: {
        verify: async (token) => {
          verified.push(token);
          return session(token);
        },
      },
      adminTokens: {
        verify: async (token) => {
          verified.push(token);
          return token === ADMIN_TOKEN;
        },
      },
      rateLimits: new MemoryRateLimitStore(),
      perKeyPolicy: { burst: 100, refillPerMinute: 100 },
      routeLimits: LIMITS,
      logger,
      isDraining: () => false,
    });
    server.get('/admin/v1/groups', async () => ({ items: [] }));
    server.get('/console/v1/keys', async () => ({ items: [] }));
    server.post('/console/v1/keys', async () => ({ keyId: 'key_1' }));
    server.get('/console/v1/catalog/models', async () => ({ items: [] }));
    await server.ready();
  });
  afterEach(() => server.close());

  const call = (
    method: 'GET' | 'POST',
    url: string,
    address: string,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    server.inject({
      method,
      url,
      remoteAddress: address,
      headers,
      ...(method === 'POST' ? { payload: {} } : {}),
    });
  const admin = (address: string, token: string | null, headers: Record<string, string> = {}) =>
    call('GET', '/admin/v1/groups', address, {
      ...headers,
      ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
    });

  function expectRateLimited(reply: LightMyRequestResponse): void {
    expect(reply.statusCode).toBe(429);
    expect(reply.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(reply.json()).toEqual({
      code: 429,
      msg: `Too many requests. Retry after ${String(reply.headers['retry-after'])} seconds.`,
      request_id: expect.stringMatching(/^req_/),
    });
  }

  it('refuses an address its admin requests past its failed admin-token attempts, before checking any token', async () => {
    // Wrong, missing and malformed credentials all count.
    expect((await admin('203.0.113.1', 'gadm_wrong')).statusCode).toBe(401);
    expect((await admin('203.0.113.1', null)).statusCode).toBe(401);
    expect((await admin('203.0.113.1', null, { authorization: 'Basic Zm9vOmJhcg==' })).statusCode).toBe(401);
    verified.length = 0;
    const refused = await admin('203.0.113.1', 'gadm_wrong');
    expectRateLimited(refused);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.headers['x-ratelimit-limit']).toBe('3');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    // The right token too: a guess that happens to be right learns nothing. No token was checked.
    expectRateLimited(await admin('203.0.113.1', ADMIN_TOKEN));
    expect(verified).toEqual([]);
    // Another address is not concerned.
    expect((await admin('203.0.113.2', ADMIN_TOKEN)).statusCode).toBe(200);
  });

  it('lets successful admin requests through without drawing on the failures, up to the per-address bucket', async () => {
    expect((await admin('203.0.113.3', 'gadm_wrong')).statusCode).toBe(401);
    for (let i = 0; i < 7; i += 1) {
      const reply = await admin('203.0.113.3', ADMIN_TOKEN);
      expect(reply.statusCode).toBe(200);
      // The edge's buckets set no X-RateLimit-* on an answer they allow.
      expect(reply.headers['x-ratelimit-limit']).toBeUndefined();
    }
    const refused = await admin('203.0.113.3', ADMIN_TOKEN);
    expectRateLimited(refused);
    expect(refused.headers['x-ratelimit-limit']).toBe('8');
  });

  it('limits the console routes per address, before the session is checked', async () => {
    for (let i = 0; i < 8; i += 1) {
      const reply = await call('GET', '/console/v1/keys', '203.0.113.4', {
        authorization: `Bearer ${i % 2 === 0 ? 'gcs_a' : 'nope'}`,
      });
      expect(reply.statusCode).toBe(i % 2 === 0 ? 200 : 401);
    }
    verified.length = 0;
    expectRateLimited(
      await call('GET', '/console/v1/keys', '203.0.113.4', { authorization: 'Bearer gcs_a' }),
    );
    expect(verified).toEqual([]);
    // The public catalog is not a console route: its own limit (none here) applies.
    expect((await call('GET', '/console/v1/catalog/models', '203.0.113.4')).statusCode).toBe(200);
  });

  it("limits each console session's writes, whatever address they come from; reads are not writes", async () => {
    const as = (address: string, method: 'GET' | 'POST', token = 'gcs_writer') =>
      call(method, '/console/v1/keys', address, { authorization: `Bearer ${token}` });
    expect((await as('203.0.113.5', 'POST')).statusCode).toBe(200);
    expect((await as('203.0.113.6', 'POST')).statusCode).toBe(200);
    expectRateLimited(await as('203.0.113.7', 'POST'));
    expect((await as('203.0.113.7', 'GET')).statusCode).toBe(200);
    // Another session of the same account has its own bucket.
    expect((await as('203.0.113.7', 'POST', 'gcs_other')).statusCode).toBe(200);
  });

  it('takes no per-address token of a request another app of the fleet forwarded here (it took them)', async () => {
    for (let i = 0; i < 12; i += 1) {
      const reply = await admin('127.0.0.1', ADMIN_TOKEN, markForwarded({}));
      expect(reply.statusCode).toBe(200);
    }
    // A client that sends the header without the mark gains nothing.
    for (let i = 0; i < 8; i += 1) {
      const reply = await admin('127.0.0.1', ADMIN_TOKEN, { 'x-gen-forwarded-request': 'guess' });
      expect(reply.statusCode).toBe(200);
    }
    expectRateLimited(await admin('127.0.0.1', ADMIN_TOKEN, { 'x-gen-forwarded-request': 'guess' }));
  });
});
