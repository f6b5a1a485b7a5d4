/**
 * Socket errors of a connection that could not be made or was lost (node-postgres passes them on with Node's
 * code, as do other clients).
 */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is not there for now: class 08 (connection exception), 57P01 (terminated by an
 * administrator: a fast shutdown), 57P02 (crash shutdown), 57P03 (cannot connect now: starting up, shutting
 * down, in recovery), 53300 (too many connections).
 */
const SQLSTATES = /^(08...|57P0[123]|53300)$/;

/**
 * Prisma's codes for the same: P1001 can't reach the server, P1002 it timed out, P1017 it closed the
 * connection, P2024 no connection from the pool in time. (P2039, any driver adapter error, is read by its
 * cause below.)
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1017', 'P2024']);

/** node-postgres' own errors about a connection, which carry no code. */
const MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
];

interface ErrorLike {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
  readonly meta?: { readonly driverAdapterError?: { readonly cause?: unknown } };
}

/**
 * True when `error` says a dependency, above all the database, could not be reached or was lost (a restart, a
 * failover, a network cut), rather than that the request or a statement was wrong: the request may succeed
 * when tried again, so the edge answers 503 with business code 50301 instead of a 500. Reads node-postgres
 * errors, Prisma's (directly or through its driver adapter's cause), socket errors of any client, and any error
 * whose `cause` is one of them.
 */
export function isUnavailableDependency(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth += 1) {
    const e = current as ErrorLike;
    const code = typeof e.code === 'string' ? e.code : '';
    if (SOCKET_CODES.has(code) || SQLSTATES.test(code) || PRISMA_CODES.has(code)) return true;
    if (code === '' && typeof e.message === 'string' && MESSAGES.includes(e.message)) return true;
    current = e.meta?.driverAdapterError?.cause ?? e.cause;
  }
  return false;
}
