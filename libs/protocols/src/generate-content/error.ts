import { googleErrorStatus } from '@gen/contracts';
import type { ProtocolError } from '../canonical/text-input';

/** The error body: `{error: {code, message, status}}`. */
export interface GenerateContentErrorBody {
  error: {
    code: number;
    message: string;
    status: string;
    details?: { '@type': string; fieldViolations: { field: string; description: string }[] }[];
  };
}

/**
 * A refused or failed request as Google writes it: the HTTP status as `code`, the localized `message`, the status
 * name. When the error names a field, a `google.rpc.BadRequest` detail carries it (`fieldViolations[].field`), as
 * Google's own errors do, since this shape has no `param`.
 */
export function writeGenerateContentError(error: ProtocolError, message: string): GenerateContentErrorBody {
  const body: GenerateContentErrorBody = {
    error: { code: error.status, message, status: googleErrorStatus(error.status) },
  };
  if (error.param !== null) {
    body.error.details = [
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [{ field: error.param, description: message }],
      },
    ];
  }
  return body;
}
