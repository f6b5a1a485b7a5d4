import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics';

/** Where Prometheus scrapes. */
export const METRICS_PATH = '/metrics';

/**
 * Serves `GET /metrics` on the app's own port, registered on Fastify itself: outside Nest's router and the
 * OpenAPI document (it is an operator's endpoint, not part of the API). The edge classifies the path as a
 * system route, so it needs no credential, takes no rate-limit token, and still answers while draining.
 */
export function installMetricsRoute(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.route({
    method: 'GET',
    url: METRICS_PATH,
    handler: async (_request, reply) => {
      const body = await metrics.render();
      return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(body);
    },
  });
}

/**
 * Serves `GET /metrics` alone on a port of its own (`METRICS_PORT`), for fleets whose ingress forwards every
 * path of the app port: a port the ingress does not know is out of its reach, whatever its rules. Anything
 * else on that port is a plain 404.
 */
export function serveMetrics(metrics: Metrics, host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    metrics.render().then(
      (body) => {
        response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics failed\n'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** The port a server listens on (METRICS_PORT 0 picks one). */
export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}
