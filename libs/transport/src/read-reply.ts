import { BusinessCode } from '@gen/contracts';
import { CATALOGS, DomainError, validatorFor, type MessageId } from '@gen/core';
import { CallReplySchema, type CallFailure } from './call-wire';
import { NotJsonSafeError } from './json-safe';
import { UnknownServiceCallError, internalCallError } from './service-call.errors';

const BUSINESS_CODES = new Set<unknown>(Object.values(BusinessCode));

function domainErrorOf(failure: Extract<CallFailure, { kind: 'domain' }>): DomainError {
  const { code, messageId, params, headers } = failure;
  // A peer built from other contracts (a rolling deploy) must not hand the edge a code or text it lacks.
  if (!BUSINESS_CODES.has(code) || !Object.hasOwn(CATALOGS.en, messageId)) return internalCallError();
  return new DomainError(code as BusinessCode, messageId as MessageId, params, headers);
}

/** The caller's side of a reply: the result, or the error it stands for. */
export function readReply<R>(reply: unknown, service: string, pattern: string): R {
  if (!validatorFor(CallReplySchema)(reply)) throw internalCallError();
  if (reply.ok) return reply.result as R;
  const failure = reply.error;
  switch (failure.kind) {
    case 'domain':
      throw domainErrorOf(failure);
    case 'unknown_handler':
      throw new UnknownServiceCallError(service, pattern);
    case 'not_json_safe':
      throw new NotJsonSafeError(failure.detail);
    case 'internal':
      throw internalCallError();
  }
}
