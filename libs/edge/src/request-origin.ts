import type { FastifyRequest } from 'fastify';

/*
 * The scheme and host the client called. `X-Forwarded-Proto` and `X-Forwarded-Host` count only when the peer
 * is a listed proxy (TRUSTED_PROXIES), as `X-Forwarded-For` does for the client address: Fastify's
 * `request.protocol` and `request.host` read them through the same `trustProxy` test (the last value, the one
 * the nearest proxy wrote). From anyone else they are ignored, so a client can neither choose the origin of a
 * console sign-in link nor mark a plain-HTTP session cookie `Secure`.
 */

/** True when the client reached us over HTTPS: TLS on this socket, or `X-Forwarded-Proto: https` of a listed proxy. */
export function isSecureRequest(request: FastifyRequest): boolean {
  return request.protocol?.toLowerCase() === 'https';
}

/** The origin the client called, `https://host[:port]`: the scheme above and the Host header (a listed proxy's `X-Forwarded-Host`). */
export function requestBaseUrl(request: FastifyRequest): string {
  return `${isSecureRequest(request) ? 'https' : 'http'}://${request.host || 'localhost'}`;
}

/** The value of one cookie of the request, or null (the first one when the name repeats). */
export function cookieValue(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value === '' ? null : value;
  }
  return null;
}
