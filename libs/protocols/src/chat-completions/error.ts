import type { ProtocolError } from '../canonical/text-input';

/** The error body of chat completions (and OpenAI's other APIs): what the SDK turns into an `APIError`. */
export interface ChatCompletionsErrorBody {
  error: { message: string; type: string; param: string | null; code: string };
}

/**
 * The `type` of an error body by HTTP status. The spec leaves chat-style `type` values open ("not shown"); these
 * are OpenAI's own, so clients that branch on them keep working:
 * 400, 409, 413 and other 4xx invalid_request_error; 401 authentication_error; 402 insufficient_quota (the balance
 * or a spend cap, which OpenAI reports as a quota); 403 permission_error; 404 not_found_error; 429
 * rate_limit_error; 5xx server_error.
 */
export function chatCompletionsErrorType(status: number): string {
  if (status >= 500) return 'server_error';
  switch (status) {
    case 401:
      return 'authentication_error';
    case 402:
      return 'insufficient_quota';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 429:
      return 'rate_limit_error';
    default:
      return 'invalid_request_error';
  }
}

/** `{error: {message, type, param, code}}`; `message` is already in the caller's language. */
export function writeChatCompletionsError(error: ProtocolError, message: string): ChatCompletionsErrorBody {
  return {
    error: { message, type: chatCompletionsErrorType(error.status), param: error.param, code: error.code },
  };
}
