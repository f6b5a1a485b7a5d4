import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';

/**
 * Why a call got no answer. `unreachable`: nothing was sent (no peer listening), a retry is safe.
 * `timeout` and `connection_lost`: the handler may have run; retry only what is idempotent.
 */
export type UnavailableReason = 'unreachable' | 'timeout' | 'connection_lost';

/** The called service did not answer: 503 `server.unavailable` at the edge, with Retry-After. */
export class ServiceUnavailableError extends DomainError {
  constructor(
    readonly service: string,
    readonly pattern: string,
    readonly reason: UnavailableReason,
  ) {
    super(BusinessCode.TemporarilyUnavailable, 'server.unavailable', {}, { 'retry-after': '1' });
    this.name = 'ServiceUnavailableError';
    this.message = `service call ${service}.${pattern} got no answer: ${reason}`;
  }
}

/** Nothing serves this service and pattern: a wiring mistake, a 500 at the edge. */
export class UnknownServiceCallError extends Error {
  constructor(
    readonly service: string,
    readonly pattern: string,
    detail = 'no handler is registered for it',
  ) {
    super(`unknown service call ${service}.${pattern}: ${detail}`);
    this.name = 'UnknownServiceCallError';
  }
}

/** What the caller sees of a handler's unexpected failure: a generic 500, its detail stays with the callee. */
export const internalCallError = (): DomainError => new DomainError(BusinessCode.ServerError, 'server.error');
