import { IdPrefix } from '@gen/contracts';
import { createLogger, newId } from '@gen/core';
import { MemoryRateLimitStore, installEdge, renderError } from '@gen/edge';
import type { HttpAdapterHost } from '@nestjs/core';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { InjectedHttpForward } from './forwarded-routes';

const ONE = { burst: 1, refillPerMinute: 1 };

describe("the owner's side of a forwarded route (InjectedHttpForward)", () => {
  let server: FastifyInstance;
  let forward: InjectedHttpForward;

  beforeAll(async () => {
    const logger = createLogger('silent');
    server = Fastify({
      loggerInstance: logger as FastifyBaseLogger,
      genReqId: () => newId(IdPrefix.request),
    });
    server.setErrorHandler((error, request, reply) => {
      const response = renderError(error, request, 1024);
      void reply.status(response.status).headers(response.headers).send(response.body);
    });
    installEdge(server, {
      apiKeys: null,
      consoleSessions: null,
      adminTokens: { verify: async (token) => token === 'gadm_right' },
      rateLimits: new MemoryRateLimitStore(),
      perKeyPolicy: ONE,
      // One admin request per address: the owner would refuse the second if it took tokens.
      routeLimits: {
        adminPerAddress: ONE,
        adminFailuresPerAddress: ONE,
        consolePerAddress: ONE,
        consoleWritesPerSession: ONE,
      },
      logger,
      isDraining: () => false,
    });
    server.post('/admin/v1/accounts/:accountId/credits', async () => ({ credited: true }));
    await server.ready();
    forward = new InjectedHttpForward({
      httpAdapter: { getInstance: () => server },
    } as unknown as HttpAdapterHost);
  });
  afterAll(() => server.close());

  const credits = (token: string, headers: Record<string, string> = {}) =>
    forward.forward({
      method: 'POST',
      url: '/admin/v1/accounts/acc_1/credits',
      headers: { ...headers, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: Buffer.from('{}').toString('base64'),
    });

  it('serves it with its credential checked, but takes no per-address token: the receiving app took them', async () => {
    for (let i = 0; i < 5; i += 1) {
      const answer = await credits('gadm_right', { 'x-gen-forwarded-request': 'sent by the client' });
      expect(answer.status).toBe(200);
    }
    expect((await credits('gadm_wrong')).status).toBe(401);
    // A request that reaches the owner's port directly is limited as any other.
    const direct = () =>
      server.inject({
        method: 'POST',
        url: '/admin/v1/accounts/acc_1/credits',
        headers: { authorization: 'Bearer gadm_right' },
        payload: {},
      });
    expect((await direct()).statusCode).toBe(200);
    expect((await direct()).statusCode).toBe(429);
  });
});
