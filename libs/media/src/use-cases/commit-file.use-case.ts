import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@gen/core';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { objectKeyOf } from '../domain/file-keys';
import { inspectMedia } from '../domain/inspect-media';
import type { MediaFile, Refusal } from '../domain/media-file';
import { fileNotFound, fileRefused, mediaPending } from '../domain/media.errors';
import { FileRepository } from '../persistence/file.repository';

/** How long a commit holds a file it verifies; a commit that died lets another take over after it. */
export const COMMIT_LEASE_MS = 60_000;
/** How long a second commit of the same file waits for the first one's verdict before answering 409. */
export const COMMIT_WAIT_MS = 30_000;
const POLL_MS = 25;

/**
 * POST /api/v1/files/{fileId}/commit: verifies the uploaded bytes and makes them a ready file. Exactly one
 * commit verifies a file (a claim with a lease); a concurrent one waits for its verdict and answers the same.
 * A ready file is answered again as it is (idempotent); a refused one is refused again, with the same reason.
 * The bytes verified are the bytes written to the immutable key: a second upload to the still valid URL during
 * the verification cannot slip in.
 */
@Injectable()
export class CommitFileUseCase {
  constructor(
    private readonly files: FileRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(accountId: string, fileId: string): Promise<MediaFile> {
    const waitUntil = Date.now() + COMMIT_WAIT_MS;
    for (;;) {
      const now = this.clock.now();
      const claimed = await this.files.claim(
        accountId,
        fileId,
        now,
        new Date(now.getTime() + COMMIT_LEASE_MS),
      );
      if (claimed) return this.verify(claimed);
      const file = await this.files.find(accountId, fileId);
      if (!file) throw fileNotFound();
      if (file.state === 'ready') return file;
      if (file.state === 'refused') throw fileRefused(file.refusal!);
      // Pending, not claimable: either another commit holds it, or its commit window has closed.
      if (!file.claimedUntil || file.claimedUntil <= now) throw fileNotFound();
      if (Date.now() >= waitUntil) throw mediaPending(fileId);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private async verify(file: MediaFile): Promise<MediaFile> {
    let verdict = false;
    try {
      const result = await this.verified(file);
      verdict = true;
      return result;
    } finally {
      if (!verdict) await this.files.release(file.accountId, file.id);
    }
  }

  private async verified(file: MediaFile): Promise<MediaFile> {
    const objectKey = objectKeyOf(file.accountId, file.id);
    // The upload becomes the object at its private key first, as it is at this moment: the bytes verified are
    // the bytes kept, and a second upload to the still valid URL lands at the temporary key again, where
    // retention removes it. A commit that died after the move finds the bytes at the private key.
    await this.storage.move(file.tempKey!, objectKey);
    // One read: the size as stored and, unless it is larger than the ticket's, the bytes in one buffer.
    const stored = await this.storage.readBytes(objectKey, file.bytes);
    if (!stored) throw mediaPending(file.id);
    const bytes = stored.body;
    if (!bytes || bytes.length !== file.bytes) {
      return this.refuse(file, {
        messageId: 'media.size_mismatch',
        params: { actual: bytes?.length ?? stored.bytes, expected: file.bytes },
      });
    }
    const inspection = await inspectMedia(bytes, file.contentType);
    if (!inspection.ok) return this.refuse(file, inspection.refusal);
    const ready = await this.files.markReady(file.accountId, file.id, {
      facts: inspection.facts,
      objectKey,
      now: this.clock.now(),
    });
    return ready ?? this.execute(file.accountId, file.id);
  }

  /** Nothing is kept: the bytes go, the file is marked refused with its reason, and it is 400. */
  private async refuse(file: MediaFile, refusal: Refusal): Promise<never> {
    await this.storage.delete(objectKeyOf(file.accountId, file.id));
    await this.storage.delete(file.tempKey!);
    await this.files.markRefused(file.accountId, file.id, refusal);
    throw fileRefused(refusal);
  }
}
