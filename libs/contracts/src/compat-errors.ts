/**
 * The compatibility protocols' error vocabulary by HTTP status: one table per protocol, read by the edge (what it
 * refuses: key, balance, rate, body size, an unknown path) and by the protocol writers (what a protocol refuses or
 * a model fails with) alike, so a client sees the same `type` or `status` for a status whoever raised it.
 *
 * The spec fixes the statuses and Google's status names and leaves the chat-style `type` values open ("not
 * shown"); these are the providers' own, so clients that branch on them keep working.
 */

/**
 * OpenAI (chat completions, Responses, videos): the `type` of `{error: {message, type, param, code}}`, and the
 * `code` the edge writes when nothing more specific (`model_not_found`, `unsupported_parameter`, ...) names the
 * failure. 402 is a quota to OpenAI (the balance or a spend cap); a conflict or an oversized body is a request
 * OpenAI calls invalid; every 5xx is `server_error`.
 */
export const OPENAI_ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'insufficient_quota',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'invalid_request_error',
  413: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'server_error',
  503: 'server_error',
};
export const OPENAI_ERROR_CODES: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  401: 'invalid_api_key',
  402: 'insufficient_balance',
  403: 'permission_denied',
  404: 'not_found',
  409: 'conflict',
  413: 'request_too_large',
  429: 'rate_limit_exceeded',
  500: 'server_error',
  503: 'service_unavailable',
};

/** Anthropic (Messages): the `error.type` of `{type: "error", error: {type, message}}`, Anthropic's own table. */
export const ANTHROPIC_ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'invalid_request_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'overloaded_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** Google (generateContent): the canonical `status` name of `{error: {code, message, status}}`. */
export const GOOGLE_ERROR_STATUSES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  402: 'FAILED_PRECONDITION',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const isServerError = (status: number) => status >= 500;

/** OpenAI's `type` for a status; one the table lacks is `invalid_request_error` (4xx) or `server_error`. */
export function openAiErrorType(status: number): string {
  return OPENAI_ERROR_TYPES[status] ?? (isServerError(status) ? 'server_error' : 'invalid_request_error');
}

/** The edge's OpenAI `code` for a status; one the table lacks is `invalid_request` (4xx) or `server_error`. */
export function openAiErrorCode(status: number): string {
  return OPENAI_ERROR_CODES[status] ?? (isServerError(status) ? 'server_error' : 'invalid_request');
}

/** Anthropic's `type` for a status; one the table lacks is `invalid_request_error` (4xx) or `api_error`. */
export function anthropicErrorType(status: number): string {
  return ANTHROPIC_ERROR_TYPES[status] ?? (isServerError(status) ? 'api_error' : 'invalid_request_error');
}

/** Google's `status` name for a status; one the table lacks is `INVALID_ARGUMENT` (4xx) or `INTERNAL`. */
export function googleErrorStatus(status: number): string {
  return GOOGLE_ERROR_STATUSES[status] ?? (isServerError(status) ? 'INTERNAL' : 'INVALID_ARGUMENT');
}

/** A table as `400 name, 401 name, ...` (statuses ascending), for the OpenAPI descriptions of these fields. */
export function describeErrorTable(table: Readonly<Record<number, string>>): string {
  return Object.entries(table)
    .map(([status, name]) => `${status} ${name}`)
    .join(', ');
}
