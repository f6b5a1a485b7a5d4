import { openAiErrorType } from '@gen/contracts';
import type { ProtocolError } from '../canonical/text-input';

/** The error body of chat completions (and OpenAI's other APIs): what the SDK turns into an `APIError`. */
export interface ChatCompletionsErrorBody {
  error: { message: string; type: string; param: string | null; code: string };
}

/** `{error: {message, type, param, code}}`; `message` is already in the caller's language. */
export function writeChatCompletionsError(error: ProtocolError, message: string): ChatCompletionsErrorBody {
  return {
    error: { message, type: openAiErrorType(error.status), param: error.param, code: error.code },
  };
}
