import type { ProtocolError } from '../canonical/text-input';

/** OpenAI's error `type` for each HTTP status the service answers with. */
export function responsesErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'insufficient_quota';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/**
 * The error body of the Responses endpoint (spec: `error` object with `message`, `type`, `param`, `code`).
 * `message` is the caller's already-localized text; `code` and `param` never change with the language.
 */
export function writeResponsesError(
  error: ProtocolError,
  message: string,
): { error: { message: string; type: string; param: string | null; code: string } } {
  return { error: { message, type: responsesErrorType(error.status), param: error.param, code: error.code } };
}
