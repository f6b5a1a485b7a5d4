import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { renderError } from '@gen/edge';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import {
  LOCAL_OBJECTS_PATH,
  MAX_OBJECT_BYTES,
  type LocalObjectStorage,
  type SignedMethod,
  type SignedUpload,
} from './local-object-storage';

interface Ticket {
  readonly key: string;
  readonly secondsLeft: number;
  readonly upload: SignedUpload | null;
}

const PREFIX = `${LOCAL_OBJECTS_PATH}/`;

/** The key of an object URL: each path segment decoded on its own, so `%2F` cannot make a new segment. */
function keyOfUrl(url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  try {
    const segments = path.slice(PREFIX.length).split('/').map(decodeURIComponent);
    // An invalid key (empty, `..`, ...) is reported by verify().
    return segments.some((segment) => segment.includes('/')) ? '' : segments.join('/');
  } catch {
    return '';
  }
}

const forbidden = (field: string): DomainError =>
  new DomainError(BusinessCode.Forbidden, 'request.invalid_field', { field });
const notFound = (): DomainError => new DomainError(BusinessCode.NotFound, 'request.not_found');

/**
 * Serves the objects of a `LocalObjectStorage` at `/objects/v1/<key>` with its signed URLs as the only
 * credential (the edge classifies the path as `system`: no API key). Statuses, as S3 gives them:
 * - PUT: 403 for a bad, expired or malformed signature, a Content-Type other than the signed one, or a
 *   Content-Length header absent or other than the signed one, all before the body is read; 400 when the body
 *   turns out shorter or longer than signed (nothing is stored); 200 with an empty body once stored.
 * - GET and HEAD: 403 for a bad or expired signature; 404 when there is no object; 200 with the stored
 *   Content-Type and Content-Length, cacheable privately until the URL expires.
 * Error bodies are the service envelope, rendered by `renderError`; they never name a file.
 *
 * The routes live in their own encapsulated plugin: its catch-all body parser (the raw request stream, never
 * buffered) and error handler do not reach the rest of the app, which takes JSON only. Call this before the
 * instance starts listening.
 */
export function installLocalObjectRoutes(fastify: FastifyInstance, storage: LocalObjectStorage): void {
  const tickets = new WeakMap<FastifyRequest, Ticket>();

  const authorize = (method: SignedMethod, request: FastifyRequest): Ticket => {
    const key = keyOfUrl(request.url);
    const check = storage.verify(method, key, request.query as Record<string, unknown>);
    if (!check.ok) throw forbidden(check.field);
    const ticket = { key, secondsLeft: check.secondsLeft, upload: check.upload };
    tickets.set(request, ticket);
    return ticket;
  };

  const ticketOf = (request: FastifyRequest): Ticket => {
    const ticket = tickets.get(request);
    if (!ticket) throw new Error('object route reached without a verified ticket');
    return ticket;
  };

  void fastify.register((instance, _options, done) => {
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', (_request, payload, parsed) => parsed(null, payload));

    instance.setErrorHandler((error, request, reply) => {
      const response = renderError(error, request, MAX_OBJECT_BYTES);
      if (response.unexpected) request.log.error({ err: error }, 'unexpected error');
      // A refused upload may still be sending: do not read the rest of it on this connection.
      if (request.method === 'PUT' && !request.raw.complete) void reply.header('connection', 'close');
      void reply.status(response.status).headers(response.headers).send(response.body);
    });

    instance.route({
      method: 'PUT',
      url: `${PREFIX}*`,
      bodyLimit: MAX_OBJECT_BYTES,
      onRequest: async (request) => {
        const { upload } = authorize('PUT', request);
        if (!upload) throw forbidden('X-Signature');
        if (request.headers['content-type'] !== upload.contentType) throw forbidden('content-type');
        if (request.headers['content-length'] !== String(upload.contentLength))
          throw forbidden('content-length');
      },
      handler: async (request, reply) => {
        const { key, upload } = ticketOf(request);
        if (!upload) throw forbidden('X-Signature');
        const body = (request.body as Readable | undefined) ?? request.raw;
        const stored = await storage.putStream(key, body, upload.contentType, upload.contentLength);
        if (!stored) {
          throw new DomainError(BusinessCode.InvalidRequest, 'request.invalid_field', {
            field: 'content-length',
          });
        }
        return reply.status(200).send();
      },
    });

    instance.route({
      method: ['GET', 'HEAD'],
      url: `${PREFIX}*`,
      onRequest: async (request) => {
        authorize('GET', request);
      },
      handler: async (request, reply: FastifyReply) => {
        const { key, secondsLeft } = ticketOf(request);
        const object = request.method === 'HEAD' ? await storage.head(key) : await storage.read(key);
        if (!object) throw notFound();
        void reply.headers({
          'content-type': object.contentType ?? 'application/octet-stream',
          'content-length': String(object.bytes),
          'cache-control': `private, max-age=${secondsLeft}`,
          // Uploaded bytes are served from the service's own origin: never sniffed, never a live document.
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
        });
        return 'stream' in object ? reply.send(object.stream) : reply.send();
      },
    });
    done();
  });
}
