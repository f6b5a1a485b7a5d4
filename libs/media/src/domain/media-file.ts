import type { MessageId, MessageParams } from '@gen/core';
import type { MediaType } from './media-types';

export type FileState = 'pending' | 'ready' | 'refused';
/** How the bytes arrived: a direct upload with a ticket, or an import from a link. */
export type FileSource = 'upload' | 'import';

/** Why a file was refused: a message id of the catalogs and its parameters. */
export interface Refusal {
  readonly messageId: MessageId;
  readonly params: MessageParams;
}

/** What verification measured from the stored bytes. */
export interface MediaFacts {
  readonly sha256: string;
  readonly width?: number;
  readonly height?: number;
  readonly durationSeconds?: number;
}

/** A file row of an account. */
export interface MediaFile {
  readonly id: string;
  readonly accountId: string;
  readonly keyId: string;
  readonly state: FileState;
  readonly source: FileSource;
  readonly contentType: MediaType;
  readonly bytes: number;
  readonly fileName: string;
  readonly tempKey: string | null;
  readonly objectKey: string | null;
  readonly facts: MediaFacts | null;
  readonly refusal: Refusal | null;
  readonly claimedUntil: Date | null;
  /** When the upload URL stops working. */
  readonly expiresAt: Date;
  readonly createdAt: Date;
  readonly committedAt: Date | null;
}
