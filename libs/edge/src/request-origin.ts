import type { TLSSocket } from 'node:tls';
import type { FastifyRequest } from 'fastify';

const first = (value: string | string[] | undefined): string | undefined =>
  (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim() || undefined;

/** True when the client reached us over HTTPS: TLS on this socket, or `X-Forwarded-Proto: https` of a proxy. */
export function isSecureRequest(request: FastifyRequest): boolean {
  const forwarded = first(request.headers['x-forwarded-proto']);
  if (forwarded !== undefined) return forwarded.toLowerCase() === 'https';
  return (request.raw.socket as Partial<TLSSocket>).encrypted === true;
}

/** The origin the client called, `https://host[:port]`, from the scheme above and the Host header. */
export function requestBaseUrl(request: FastifyRequest): string {
  const host = first(request.headers['x-forwarded-host']) ?? request.headers.host ?? 'localhost';
  return `${isSecureRequest(request) ? 'https' : 'http'}://${host}`;
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
