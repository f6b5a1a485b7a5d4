import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import type { FastifyRequest } from 'fastify';

const QUERY_CREDENTIAL_NAMES = new Set([
  'key',
  'api_key',
  'apikey',
  'api-key',
  'access_token',
  'token',
  'x-api-key',
  'authorization',
]);

const unauthorized = (
  messageId: 'auth.missing_key' | 'auth.invalid_key' | 'auth.unsupported_scheme' | 'auth.key_in_query',
) => new DomainError(BusinessCode.Unauthorized, messageId);

/** A credential in the URL is refused outright, whatever else the request carries (spec: Authentication 3). */
export function refuseQueryCredential(url: string, keyPrefix: string): void {
  const q = url.indexOf('?');
  if (q < 0) return;
  // URLSearchParams decodes names and values and never throws on a malformed escape.
  for (const [name, value] of new URLSearchParams(url.slice(q + 1))) {
    if (QUERY_CREDENTIAL_NAMES.has(name.toLowerCase()) || value.trim().startsWith(keyPrefix))
      throw unauthorized('auth.key_in_query');
  }
}

const WHITESPACE = /\s/;

/** `Authorization: Bearer <token>`; any other scheme is refused, an absent header gives null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  // The usual form, `Bearer <token>` with one space and no other whitespace, without splitting.
  if (header.startsWith('Bearer ') && header.length > 7 && !WHITESPACE.test(header.slice(7))) {
    return header.slice(7);
  }
  const [scheme = '', ...rest] = header.trim().split(/\s+/);
  if (scheme.toLowerCase() !== 'bearer') throw unauthorized('auth.unsupported_scheme');
  const token = rest.join(' ');
  if (!token) throw unauthorized('auth.missing_key');
  return token;
}

/** The first value of a header; an empty value counts as absent. */
const single = (value: string | string[] | undefined): string | undefined =>
  (Array.isArray(value) ? value[0] : value) || undefined;

/** The API key of a native request: the Bearer header only. */
export function nativeApiKey(request: FastifyRequest): string {
  const token = bearerToken(request);
  if (token === null) throw unauthorized('auth.missing_key');
  return token;
}

/** The API key of a compatibility request: Bearer, `x-api-key` or `x-gen-api-key` (also its vendor spelling). */
export function compatApiKey(request: FastifyRequest): string {
  const token =
    bearerToken(request) ??
    single(request.headers['x-api-key']) ??
    single(request.headers['x-gen-api-key']) ??
    single(request.headers['x-goog-api-key']);
  if (!token) throw unauthorized('auth.missing_key');
  return token;
}
