import { BusinessCode } from '@gen/contracts';
import type { MessageId } from './i18n/messages/en';
import type { MessageParams } from './i18n/translate';

/**
 * The one error type domain code throws: a stable business code and a message id (translated at the edge).
 * Domain code never throws another layer's exception.
 */
export class DomainError extends Error {
  constructor(
    readonly code: BusinessCode,
    readonly messageId: MessageId,
    readonly params: MessageParams = {},
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(messageId);
    this.name = 'DomainError';
  }
}

export const invalidField = (field: string): DomainError =>
  new DomainError(BusinessCode.InvalidRequest, 'request.invalid_field', { field });
