import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleFile, ConsoleFiles } from './console-files';
import { IMMUTABLE, REVALIDATE, SECURITY_HEADERS } from './security-headers';

/** Where the console lives; `/console/v1` below it is the console's API, never a page. */
export const CONSOLE_PATH = '/console';

const isApiPath = (path: string): boolean => path === 'v1' || path.startsWith('v1/');
const acceptsGzip = (request: FastifyRequest): boolean =>
  /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));

/** The ETag of the body sent: each encoding is a representation of its own (RFC 9110 8.8.3). */
const gzipEtag = (etag: string): string => `${etag.slice(0, -1)}-gz"`;

function send(request: FastifyRequest, reply: FastifyReply, file: ConsoleFile, cacheControl: string) {
  const gzip = file.gzip && acceptsGzip(request) ? file.gzip : undefined;
  const etag = gzip ? gzipEtag(file.etag) : file.etag;
  void reply.headers(SECURITY_HEADERS);
  void reply.header('cache-control', cacheControl).header('etag', etag).header('vary', 'accept-encoding');
  void reply.type(file.contentType);
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  if (gzip) return reply.header('content-encoding', 'gzip').send(gzip);
  return reply.send(file.body);
}

/**
 * `GET /console` and `GET /console/...`: a content-hashed file under `assets/` (cached for a year), another
 * built file (revalidated), else `index.html` (revalidated), so that the app's own routes (`/console/keys`,
 * `/console/sign-in`) load the app. An unknown `/console/v1/...` path, a missing asset and every path of an
 * unbuilt console get the router's 404 (never the page: a script tag must not receive HTML). Routes of the
 * API registered on the same instance win over this wildcard (Fastify prefers static and parametric routes).
 */
export function installConsoleWeb(fastify: FastifyInstance, files: ConsoleFiles | null): void {
  const handler = (request: FastifyRequest, reply: FastifyReply) => {
    const path = (request.params as { '*'?: string })['*'] ?? '';
    if (isApiPath(path) || !files) return reply.callNotFound();
    const file = files.assets.get(path);
    if (file) return send(request, reply, file, path.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
    if (path.startsWith('assets/')) return reply.callNotFound();
    return send(request, reply, files.index, REVALIDATE);
  };
  fastify.get(CONSOLE_PATH, handler);
  fastify.get(`${CONSOLE_PATH}/*`, handler);
}
