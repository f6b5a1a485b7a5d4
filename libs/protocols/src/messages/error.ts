import type { ProtocolError } from '../canonical/text-input';

/** Anthropic's error `type` for each HTTP status the service answers with (Anthropic's own status table). */
export function messagesErrorType(status: number): string {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 503:
    case 529:
      return 'overloaded_error';
    case 504:
      return 'timeout_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/**
 * The error body of the Messages endpoint (spec: `type` = `error` and an `error` object with `type` and
 * `message`); `message` is the caller's already-localized text. Also the payload of a mid-stream `error` event.
 */
export function writeMessagesError(
  error: ProtocolError,
  message: string,
): { type: 'error'; error: { type: string; message: string } } {
  return { type: 'error', error: { type: messagesErrorType(error.status), message } };
}
