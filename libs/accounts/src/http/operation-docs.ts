import { CONSOLE_SECURITY, envelopeResponse, errorResponses, type ApiOperationDoc } from '@gen/edge';
import type { TSchema } from '@sinclair/typebox';

/** The document of an `/admin/v1` operation answering `result` in the envelope (admin token). */
export const adminOp = (
  summary: string,
  result: TSchema,
  errors: number[] = [400, 401, 404, 413, 500],
): ApiOperationDoc => ({
  tags: ['admin'],
  summary,
  security: [{ adminToken: [] }],
  responses: { ...envelopeResponse(summary, result), ...errorResponses(errors) },
});

/** A `/console/v1` operation: a bearer console token or the cookie (with `X-CSRF-Token` when it changes state). */
export const consoleOp = (
  summary: string,
  result: TSchema,
  options: {
    errors?: number[];
    description?: string;
    security?: ApiOperationDoc['security'];
    parameters?: ApiOperationDoc['parameters'];
  } = {},
): ApiOperationDoc => ({
  tags: ['console'],
  summary,
  ...(options.description ? { description: options.description } : {}),
  security: options.security ?? CONSOLE_SECURITY,
  ...(options.parameters ? { parameters: options.parameters } : {}),
  responses: {
    ...envelopeResponse(summary, result),
    ...errorResponses(options.errors ?? [400, 401, 403, 404, 413, 500]),
  },
});

export const CSRF =
  'With the session cookie, send `X-CSRF-Token` (else 403, nothing changed); a bearer console token needs none.';

const SET_COOKIE = {
  schema: { type: 'string', pattern: '^console_session=' },
  description:
    '`console_session=<token>; Path=/console; Max-Age=<seconds>; HttpOnly; SameSite=Strict`, plus `Secure` when the request came over HTTPS (TLS, or `X-Forwarded-Proto: https` from a proxy listed in TRUSTED_PROXIES).',
};

/** Adds the Set-Cookie header (and `extra` headers) to the 200 answer of `operation`. */
export function withCookie(operation: ApiOperationDoc, extra: Record<string, unknown> = {}): ApiOperationDoc {
  const responses = operation.responses as Record<string, { headers: Record<string, unknown> }>;
  const ok = responses['200']!;
  return {
    ...operation,
    responses: {
      ...responses,
      200: { ...ok, headers: { ...ok.headers, 'Set-Cookie': SET_COOKIE, ...extra } },
    },
  };
}
