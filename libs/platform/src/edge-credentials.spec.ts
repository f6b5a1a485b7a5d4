import 'reflect-metadata';
import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  API_KEY_AUTHENTICATOR,
  CONSOLE_SESSION_VERIFIER,
  type ApiKeyAuthenticator,
  type ConsoleSessionVerifier,
} from '@gen/contracts';
import { createLogger } from '@gen/core';
import { MemoryRateLimitStore, installEdge, renderError } from '@gen/edge';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { EdgeCredentials, recordRoutes, requireVerifiersFor, type Verifiers } from './edge-credentials';

const noVerifiers: Verifiers = { apiKeys: null, consoleSessions: null, adminTokens: null };
const keys: ApiKeyAuthenticator = { authenticate: async () => null };

describe('EdgeCredentials', () => {
  it('is null for each verifier the app does not compose, without Nest logging a missing provider', async () => {
    const logged: unknown[] = [];
    @Module({ providers: [EdgeCredentials] })
    class Bare {}
    const app = await NestFactory.createApplicationContext(Bare, {
      logger: { log() {}, warn() {}, error: (...args: unknown[]) => logged.push(args) },
    });
    expect(app.get(EdgeCredentials).verifiers()).toEqual(noVerifiers);
    expect(logged).toEqual([]);
    await app.close();
  });

  it('finds the verifiers wherever the app provides them: a global module (composeDomains) or the root', async () => {
    const sessions: ConsoleSessionVerifier = { verify: async () => null };
    @Global()
    @Module({
      providers: [{ provide: API_KEY_AUTHENTICATOR, useValue: keys }],
      exports: [API_KEY_AUTHENTICATOR],
    })
    class Accounts {}
    @Global()
    @Module({ providers: [EdgeCredentials], exports: [EdgeCredentials] })
    class Platform {}
    @Module({
      imports: [Platform, Accounts],
      providers: [{ provide: CONSOLE_SESSION_VERIFIER, useValue: sessions }],
    })
    class Root {}
    const app = await NestFactory.createApplicationContext(Root, { logger: false });
    expect(app.get(EdgeCredentials).verifiers()).toEqual({
      apiKeys: keys,
      consoleSessions: sessions,
      adminTokens: null,
    });
    await app.close();
  });
});

describe('requireVerifiersFor', () => {
  it('fails start-up naming an authenticated route the app has no verifier for', () => {
    expect(() => requireVerifiersFor(['/healthz', '/api/v1/models'], noVerifiers)).toThrow(
      '/api/v1/models needs the apiKeys verifier, which only the accounts module provides',
    );
    expect(() => requireVerifiersFor(['/admin/v1/webhook-deliveries'], noVerifiers)).toThrow(
      'needs the adminTokens verifier',
    );
    expect(() => requireVerifiersFor(['/console/v1/webhook-endpoints'], noVerifiers)).toThrow(
      'needs the consoleSessions verifier',
    );
  });

  it('accepts system and public routes without verifiers, and authenticated ones with theirs', () => {
    expect(() =>
      requireVerifiersFor(
        ['/healthz', '/readyz', '/openapi.json', '/console/v1/catalog/models'],
        noVerifiers,
      ),
    ).not.toThrow();
    expect(() =>
      requireVerifiersFor(['/api/v1/models', '/v1/models'], { ...noVerifiers, apiKeys: keys }),
    ).not.toThrow();
  });
});

describe('the edge of an app without verifiers', () => {
  let server: FastifyInstance;
  let routes: readonly string[];

  beforeAll(async () => {
    const logger = createLogger('silent');
    server = Fastify({ loggerInstance: logger as FastifyBaseLogger });
    routes = recordRoutes(server);
    server.setErrorHandler((error, request, reply) => {
      const response = renderError(error, request, 1024);
      void reply.status(response.status).headers(response.headers).send(response.body);
    });
    installEdge(server, {
      apiKeys: null,
      consoleSessions: null,
      adminTokens: null,
      rateLimits: new MemoryRateLimitStore(),
      perKeyPolicy: { burst: 10, refillPerMinute: 60 },
      routeLimits: {
        adminPerAddress: { burst: 10, refillPerMinute: 60 },
        adminFailuresPerAddress: { burst: 10, refillPerMinute: 60 },
        consolePerAddress: { burst: 10, refillPerMinute: 60 },
        consoleWritesPerSession: { burst: 10, refillPerMinute: 60 },
      },
      logger,
      isDraining: () => false,
    });
    server.get('/healthz', async () => ({ ok: true }));
    await server.ready();
  });
  afterAll(() => server.close());

  it('records the routes registered after it', () => {
    expect(routes).toContain('/healthz');
  });

  it.each([
    ['/api/v1/jobs/createTask', { authorization: 'Bearer sk-anything' }],
    ['/api/v1/models', {}],
    ['/v1/models', { authorization: 'Bearer sk-anything' }],
    ['/admin/v1/webhook-deliveries', { authorization: 'Bearer admin' }],
    ['/console/v1/webhook-endpoints', {}],
  ])('answers 404 on %s, with or without a credential, instead of refusing it', async (url, headers) => {
    const response = await server.inject({ method: 'GET', url, headers });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('API key');
    if (url.startsWith('/api') || url.startsWith('/admin') || url.startsWith('/console'))
      expect(response.json()).toMatchObject({ code: 404 });
  });

  it('still serves its system routes', async () => {
    expect((await server.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
