import {
  API_KEY_PREFIX,
  BusinessCode,
  type AdminTokenVerifier,
  type ApiKeyAuthenticator,
  type ConsoleSessionVerifier,
} from '@gen/contracts';
import { DomainError, loggableUrl, negotiateLanguage, translate, type Logger } from '@gen/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { compatApiKey, bearerToken, nativeApiKey, refuseQueryCredential } from './credentials';
import type { EdgeState } from './edge-state';
import type { RateLimitStore, TokenBucketPolicy } from './rate-limit';
import { routeFamily, usesEnvelope } from './route-family';

export interface EdgeDependencies {
  readonly apiKeys: ApiKeyAuthenticator;
  readonly consoleSessions: ConsoleSessionVerifier;
  readonly adminTokens: AdminTokenVerifier;
  readonly rateLimits: RateLimitStore;
  readonly perKeyPolicy: TokenBucketPolicy;
  readonly logger: Logger;
  /** True once SIGTERM arrived: new work is refused with 503 while in-flight requests finish. */
  readonly isDraining: () => boolean;
}

async function authenticate(
  request: FastifyRequest,
  reply: FastifyReply,
  edge: EdgeState,
  deps: EdgeDependencies,
): Promise<void> {
  switch (edge.family) {
    case 'native':
    case 'openai':
    case 'anthropic':
    case 'gemini': {
      refuseQueryCredential(request.url, API_KEY_PREFIX);
      const key = edge.family === 'native' ? nativeApiKey(request) : compatApiKey(request);
      const principal = await deps.apiKeys.authenticate(key);
      if (!principal) throw new DomainError(BusinessCode.Unauthorized, 'auth.invalid_key');
      edge.principal = principal;
      const decision = await deps.rateLimits.take(`key:${principal.keyId}`, deps.perKeyPolicy, Date.now());
      reply.header('x-ratelimit-limit', String(decision.limit));
      reply.header('x-ratelimit-remaining', String(decision.remaining));
      if (!decision.allowed) {
        throw new DomainError(
          BusinessCode.RateLimited,
          'rate.limited',
          { seconds: decision.retryAfterSeconds },
          {
            'retry-after': String(decision.retryAfterSeconds),
          },
        );
      }
      return;
    }
    case 'admin': {
      const token = bearerToken(request);
      if (!token || !(await deps.adminTokens.verify(token)))
        throw new DomainError(BusinessCode.Unauthorized, 'auth.admin_required');
      edge.admin = true;
      return;
    }
    case 'console': {
      const token = bearerToken(request);
      const session = token ? await deps.consoleSessions.verify(token) : null;
      if (!session) throw new DomainError(BusinessCode.Unauthorized, 'auth.console_required');
      edge.console = session;
      return;
    }
    case 'public':
    case 'system':
      return;
  }
}

/**
 * The edge pipeline, as Fastify hooks so that it runs before routing work and costs little:
 * request id, drain check, authentication per family, per-key rate limit, the success envelope, access log.
 * Failures are thrown and rendered by the one exception filter.
 */
export function installEdge(fastify: FastifyInstance, deps: EdgeDependencies): void {
  fastify.removeContentTypeParser('text/plain');

  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    const edge: EdgeState = { family: routeFamily(request.url) };
    request.edge = edge;
    if (deps.isDraining() && edge.family !== 'system') {
      reply.header('connection', 'close');
      throw new DomainError(BusinessCode.Unavailable, 'server.draining', {}, { 'retry-after': '1' });
    }
    await authenticate(request, reply, edge, deps);
  });

  fastify.addHook(
    'preSerialization',
    (
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (err: null, value: unknown) => void,
    ) => {
      const edge = request.edge;
      if (!edge || !usesEnvelope(edge.family) || reply.statusCode >= 300) return done(null, payload);
      const language = negotiateLanguage(
        request.headers['accept-language'],
        edge.principal?.language ?? edge.console?.language ?? null,
      );
      done(null, {
        code: BusinessCode.Ok,
        msg: translate(language, 'success'),
        data: payload,
        request_id: request.id,
      });
    },
  );

  fastify.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        url: loggableUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
    done();
  });
}
