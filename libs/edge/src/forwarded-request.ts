import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * A request that another app of the fleet received and forwarded here over the service transport
 * (`FORWARDED_ROUTES`, served by `fastify.inject`). That app's edge already took the request's per-address
 * tokens, for the client's real address; here the peer is the in-process injection, so taking them again
 * would charge the client twice, or every client of the fleet to one bucket (`127.0.0.1`).
 *
 * The mark is a header whose value is made at random when the process starts and never leaves it: only this
 * process's own injection can carry it, and a client sending the header gets nothing from it.
 */
const FORWARDED_HEADER = 'x-gen-forwarded-request';
const MARK = randomBytes(24).toString('base64url');
const MARK_BYTES = Buffer.from(MARK);

/** The headers of a request about to be injected for its owner: these, and the mark. */
export function markForwarded(headers: Readonly<Record<string, string>>): Record<string, string> {
  return { ...headers, [FORWARDED_HEADER]: MARK };
}

/** True for a request this process injected with `markForwarded`. */
export function isForwarded(request: FastifyRequest): boolean {
  const value = request.headers[FORWARDED_HEADER];
  if (typeof value !== 'string') return false;
  const bytes = Buffer.from(value);
  return bytes.length === MARK_BYTES.length && timingSafeEqual(bytes, MARK_BYTES);
}
