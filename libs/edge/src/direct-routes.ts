import type { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * A route Fastify serves itself, outside Nest's router: for hot reads that use no guard, interceptor or
 * pipe. Everything the edge does still applies, since it is made of Fastify hooks and Nest's exception
 * handler is Fastify's error handler: request id, drain check, authentication, rate limit, the success
 * envelope, and errors in the envelope (or the protocol's shape). What it saves is Nest's per-request
 * execution context, about a tenth of the cost of a cheap request (see bench/edge).
 */
export interface DirectRoute {
  readonly method: 'GET';
  /** A Fastify path, e.g. `/api/v1/models/*`. */
  readonly url: string;
  /** Headers every successful answer carries, e.g. `cache-control`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Returns the body (the edge wraps it in the envelope) or throws a DomainError. */
  readonly handler: (request: FastifyRequest, reply: FastifyReply) => unknown;
}

/**
 * Registers `routes` on the Fastify instance of the Nest application, if it has one (a Nest context without
 * HTTP has none): call from `onModuleInit`, which runs before the application listens.
 */
export function installDirectRoutes(host: HttpAdapterHost | undefined, routes: readonly DirectRoute[]): void {
  const fastify = host?.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
  if (!fastify || typeof fastify.route !== 'function') return;
  for (const route of routes) {
    const headers = Object.entries(route.headers ?? {});
    fastify.route({
      method: route.method,
      url: route.url,
      handler: (request, reply) => {
        const body = route.handler(request, reply);
        for (const [name, value] of headers) void reply.header(name, value);
        return reply.send(body);
      },
    });
  }
}
