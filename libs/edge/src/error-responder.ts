import {
  anthropicErrorType,
  BusinessCode,
  googleErrorStatus,
  openAiErrorCode,
  openAiErrorType,
} from '@gen/contracts';
import {
  DomainError,
  negotiateLanguage,
  translate,
  type Language,
  type MessageId,
  type MessageParams,
  isUnavailableDependency,
} from '@gen/core';
import type { FastifyRequest } from 'fastify';
import type { EdgeState } from './edge-state';
import { httpStatusOf } from './http-status-of';
import { routeFamily, type RouteFamily } from './route-family';

export interface ErrorResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

interface Classified {
  readonly code: BusinessCode;
  readonly messageId: MessageId;
  readonly params: MessageParams;
  readonly headers: Readonly<Record<string, string>>;
  /** The chat-style `param` of the failure, when one field is at fault. */
  readonly param: string | null;
  readonly unexpected: boolean;
}

/**
 * What rendering needs to know of the request: a Fastify request, or what a connection-level refusal could
 * read of one (see `client-errors.ts`).
 */
export type ErroredRequest = Pick<FastifyRequest, 'id' | 'url' | 'headers'> & { readonly edge?: EdgeState };

/** Errors raised by Fastify itself (parsing, limits, routing), by their `code`. */
function classifyFramework(
  error: { code?: string; statusCode?: number; isSyntaxError: boolean },
  bodyLimit: number,
): Classified | null {
  const base = { params: {}, headers: {}, param: null, unexpected: false };
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        ...base,
        code: BusinessCode.PayloadTooLarge,
        messageId: 'request.body_too_large',
        params: { limit: bodyLimit },
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { ...base, code: BusinessCode.InvalidRequest, messageId: 'request.unsupported_media_type' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { ...base, code: BusinessCode.InvalidRequest, messageId: 'request.invalid_json' };
    // The router: a path that does not percent-decode, or a route parameter over maxParamLength.
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { ...base, code: BusinessCode.InvalidRequest, messageId: 'request.invalid_url' };
    default:
      break;
  }
  if (error.statusCode === 415) {
    return { ...base, code: BusinessCode.InvalidRequest, messageId: 'request.unsupported_media_type' };
  }
  if (error.isSyntaxError || error.statusCode === 400) {
    return { ...base, code: BusinessCode.InvalidRequest, messageId: 'request.invalid_json' };
  }
  if (error.statusCode === 404 || error.statusCode === 405) {
    return { ...base, code: BusinessCode.NotFound, messageId: 'request.not_found' };
  }
  if (error.statusCode === 413) {
    return {
      ...base,
      code: BusinessCode.PayloadTooLarge,
      messageId: 'request.body_too_large',
      params: { limit: bodyLimit },
    };
  }
  return null;
}

function classify(error: unknown, bodyLimit: number): Classified {
  if (error instanceof DomainError) {
    const field = typeof error.params['field'] === 'string' ? (error.params['field'] as string) : null;
    return {
      code: error.code,
      messageId: error.messageId,
      params: error.params,
      headers: error.headers,
      param: field,
      unexpected: false,
    };
  }
  // The database (or another dependency) could not be reached: worth trying again, not a fault of ours.
  if (isUnavailableDependency(error)) {
    return {
      code: BusinessCode.TemporarilyUnavailable,
      messageId: 'server.unavailable',
      params: {},
      headers: { 'retry-after': '1' },
      param: null,
      unexpected: false,
    };
  }
  // Nest's own HttpException (e.g. the NotFoundException of an unknown route) exposes getStatus().
  const status =
    typeof (error as { getStatus?: unknown })?.getStatus === 'function'
      ? (error as { getStatus(): number }).getStatus()
      : undefined;
  // Fastify's errors keep `code` on their prototype: read the fields, never spread the error.
  const fields = (error ?? {}) as { code?: unknown; statusCode?: unknown };
  const framework = classifyFramework(
    {
      code: typeof fields.code === 'string' ? fields.code : undefined,
      statusCode: status ?? (typeof fields.statusCode === 'number' ? fields.statusCode : undefined),
      isSyntaxError: error instanceof SyntaxError,
    },
    bodyLimit,
  );
  if (framework) return framework;
  return {
    code: BusinessCode.ServerError,
    messageId: 'server.error',
    params: {},
    headers: {},
    param: null,
    unexpected: true,
  };
}

/** The body of a failure in the protocol of `family`. */
function errorBody(
  family: RouteFamily,
  c: Classified,
  status: number,
  message: string,
  requestId: string,
): unknown {
  switch (family) {
    case 'openai':
      return {
        error: {
          message,
          type: openAiErrorType(status),
          param: c.param,
          code: openAiErrorCode(status),
        },
      };
    case 'anthropic':
      return {
        type: 'error',
        error: { type: anthropicErrorType(status), message },
        request_id: requestId,
      };
    case 'gemini':
      return { error: { code: status, message, status: googleErrorStatus(status) } };
    case 'console': {
      // The account holder's own screen may say which rule a value broke (e.g. an endpoint URL's), as a code the
      // page words itself; the public API's message alone stays (the spec fixes "Invalid callback URL").
      const reason = typeof c.params['reason'] === 'string' ? c.params['reason'] : undefined;
      return { code: c.code, msg: message, request_id: requestId, ...(reason ? { reason } : {}) };
    }
    case 'native':
    case 'admin':
    case 'public':
    case 'system':
      return { code: c.code, msg: message, request_id: requestId };
  }
}

/**
 * Turns any failure into the response of the caller's protocol: the one place errors are rendered.
 * Unexpected errors get a fixed 500 body; their detail goes only to the log.
 */
export function renderError(
  error: unknown,
  request: ErroredRequest,
  bodyLimit: number,
): ErrorResponse & { unexpected: boolean } {
  const c = classify(error, bodyLimit);
  const status = httpStatusOf(c.code);
  const family = request.edge?.family ?? routeFamily(request.url);
  const language: Language = negotiateLanguage(
    request.headers['accept-language'],
    request.edge?.principal?.language ?? request.edge?.console?.language ?? null,
  );
  const message = translate(language, c.messageId, c.params);
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'content-language': language,
    'cache-control': 'no-store',
    ...c.headers,
  };
  return {
    status,
    headers,
    body: JSON.stringify(errorBody(family, c, status, message, request.id)),
    unexpected: c.unexpected,
  };
}
