import { BusinessCode } from '@gen/contracts';
import { DomainError, isUnavailableDependency } from '@gen/core';
import { SpanKind, inSpan } from '@gen/observability';
import type { CallReply, CallRequest } from './call-wire';
import { assertJsonSafe } from './json-safe';
import type { ServiceHandlers } from './service-handlers';

/**
 * Runs the handler of a call and turns every outcome into a reply: what the callee does for both transports.
 * A `DomainError` keeps its meaning; anything else is reported here and crosses as a bare `internal`.
 */
export function answerCall(handlers: ServiceHandlers, request: CallRequest): Promise<CallReply> {
  // A server span continuing the caller's trace (a no-op with tracing off).
  return inSpan(
    `answer ${request.service}.${request.pattern}`,
    {
      kind: SpanKind.SERVER,
      attributes: { 'rpc.service': request.service, 'rpc.method': request.pattern },
      ...(request.trace ? { parent: request.trace } : {}),
    },
    () => answer(handlers, request),
  );
}

async function answer(handlers: ServiceHandlers, request: CallRequest): Promise<CallReply> {
  const { service, pattern } = request;
  const handler = handlers.find(service, pattern);
  if (!handler) return { ok: false, error: { kind: 'unknown_handler' } };
  let result: unknown;
  try {
    result = await handler(request.payload);
  } catch (error) {
    if (error instanceof DomainError) {
      const { code, messageId, params, headers } = error;
      return {
        ok: false,
        error: { kind: 'domain', code, messageId, params: { ...params }, headers: { ...headers } },
      };
    }
    // The callee's database (or another dependency) is down: the caller answers 503 (50301), as the callee
    // would have, rather than a 500 for a call that may succeed when tried again.
    if (isUnavailableDependency(error)) {
      return {
        ok: false,
        error: {
          kind: 'domain',
          code: BusinessCode.TemporarilyUnavailable,
          messageId: 'server.unavailable',
          params: {},
          headers: { 'retry-after': '1' },
        },
      };
    }
    handlers.reportUnexpected(error, { service, pattern });
    return { ok: false, error: { kind: 'internal' } };
  }
  try {
    assertJsonSafe(result, `the result of ${service}.${pattern}`);
  } catch (error) {
    return { ok: false, error: { kind: 'not_json_safe', detail: (error as Error).message } };
  }
  return { ok: true, result };
}
