import { SpanKind, SpanStatusCode, context, trace, type Context, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contextOf, tracingEnabled } from './tracing';

interface RequestTrace {
  readonly span: Span;
  readonly context: Context;
  ended: boolean;
}

const traces = new WeakMap<FastifyRequest, RequestTrace>();

/** The path of a URL, without its query (query values never reach a span: they may carry credentials). */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * A server span per request when tracing is on (no hook at all otherwise): it continues the caller's
 * `traceparent`, is active from the first hook to the handler and everything the handler starts (an outbox
 * row written then stores it), and is named after the route template (`POST /api/v1/jobs/createTask`), never
 * the raw path. `familyOf` adds the edge's route family. Install before the edge's hooks, so that a request
 * the edge refuses (401, 429) still has its span.
 */
export function installHttpTracing(
  fastify: FastifyInstance,
  familyOf: (request: FastifyRequest) => string | undefined = () => undefined,
): void {
  if (!tracingEnabled()) return;
  const tracer = trace.getTracer('generation-task-service');
  fastify.addHook('onRequest', (request, _reply, done) => {
    const parent = contextOf(request.headers as Record<string, string | undefined>);
    const span = tracer.startSpan(
      request.method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': request.method, 'url.path': pathOf(request.url) },
      },
      parent,
    );
    const active = trace.setSpan(parent, span);
    traces.set(request, { span, context: active, ended: false });
    context.with(active, done);
  });
  // Body parsing resumes the request from the socket's own context: enter the request's again for the rest.
  fastify.addHook('preValidation', (request, _reply, done) => {
    const entry = traces.get(request);
    if (entry) context.with(entry.context, done);
    else done();
  });
  const end = (request: FastifyRequest, status: number | undefined): void => {
    const entry = traces.get(request);
    if (!entry || entry.ended) return;
    entry.ended = true;
    const route = request.routeOptions.url;
    const family = familyOf(request);
    entry.span.updateName(`${request.method} ${route ?? family ?? 'unknown route'}`);
    if (route) entry.span.setAttribute('http.route', route);
    if (family) entry.span.setAttribute('gen.route_family', family);
    if (status === undefined) {
      entry.span.setStatus({ code: SpanStatusCode.ERROR, message: 'request aborted by the client' });
    } else {
      entry.span.setAttribute('http.response.status_code', status);
      if (status >= 500) entry.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    entry.span.end();
  };
  fastify.addHook('onResponse', (request, reply, done) => {
    end(request, reply.statusCode);
    done();
  });
  fastify.addHook('onRequestAbort', (request, done) => {
    end(request, undefined);
    done();
  });
}
