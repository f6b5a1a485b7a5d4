import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import type { Refusal } from './media-file';
import type { MediaType } from './media-types';

/** An unknown file and another account's file alike: nothing is revealed. */
export const fileNotFound = (): DomainError => new DomainError(BusinessCode.NotFound, 'request.not_found');

/** Spec, Errors: 409 "media pending on commit", retried with the same request. */
export const mediaPending = (fileId: string): DomainError =>
  new DomainError(BusinessCode.Conflict, 'media.pending', { fileId });

export const fileRefused = (refusal: Refusal): DomainError =>
  new DomainError(BusinessCode.InvalidRequest, refusal.messageId, refusal.params);

export const unsupportedType = (contentType: string): DomainError =>
  new DomainError(BusinessCode.InvalidRequest, 'media.unsupported_type', { contentType });

export const fileTooLarge = (contentType: MediaType, limit: number): DomainError =>
  new DomainError(BusinessCode.PayloadTooLarge, 'media.too_large', { contentType, limit });
