import type { ProtocolError } from '../canonical/text-input';

/** Google's canonical status names for the HTTP statuses this service answers with (spec: error bodies). */
const STATUS_NAMES: Readonly<Record<number, string>> = {
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

/** The `status` name of an HTTP status; one the table lacks is INVALID_ARGUMENT (4xx) or INTERNAL (5xx). */
export function generateContentStatus(status: number): string {
  return STATUS_NAMES[status] ?? (status < 500 ? 'INVALID_ARGUMENT' : 'INTERNAL');
}

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
    error: { code: error.status, message, status: generateContentStatus(error.status) },
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
