import { openAiErrorType } from '@gen/contracts';
import type { ProtocolError } from '../canonical/text-input';

/**
 * The error body of the Responses endpoint (spec: `error` object with `message`, `type`, `param`, `code`).
 * `message` is the caller's already-localized text; `code` and `param` never change with the language.
 */
export function writeResponsesError(
  error: ProtocolError,
  message: string,
): { error: { message: string; type: string; param: string | null; code: string } } {
  return { error: { message, type: openAiErrorType(error.status), param: error.param, code: error.code } };
}
