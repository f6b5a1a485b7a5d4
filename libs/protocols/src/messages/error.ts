import { anthropicErrorType } from '@gen/contracts';
import type { ProtocolError } from '../canonical/text-input';

/**
 * The error body of the Messages endpoint (spec: `type` = `error` and an `error` object with `type` and
 * `message`); `message` is the caller's already-localized text. Also the payload of a mid-stream `error` event.
 */
export function writeMessagesError(
  error: ProtocolError,
  message: string,
): { type: 'error'; error: { type: string; message: string } } {
  return { type: 'error', error: { type: anthropicErrorType(error.status), message } };
}
