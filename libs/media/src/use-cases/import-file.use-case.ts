import { Inject, Injectable, Optional } from '@nestjs/common';
import { BusinessCode, IdPrefix, type ApiKeyPrincipal } from '@gen/contracts';
import { CLOCK, DomainError, newId, type Clock } from '@gen/core';
import { CONCURRENCY_SLOTS, MemoryConcurrencySlots, type ConcurrencySlots } from '@gen/edge';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { tempKeyOf } from '../domain/file-keys';
import { detectMediaType } from '../domain/inspect-media';
import type { MediaFile } from '../domain/media-file';
import { IMPORT_RETRY_AFTER_SECONDS, MEDIA_OPTIONS, type MediaOptions } from '../domain/media-options';
import { fileRefused, fileTooLarge } from '../domain/media.errors';
import { MAX_AV_BYTES, maxBytesOf, mediaTypeOf } from '../domain/media-types';
import { fetchImport } from '../outbound/import-fetch';
import { FileRepository } from '../persistence/file.repository';
import { CommitFileUseCase } from './commit-file.use-case';

export interface ImportFileCommand {
  readonly principal: ApiKeyPrincipal;
  readonly url: string;
  /** Used once for the fetch; never stored, never logged. */
  readonly accessToken?: string;
  readonly fileName?: string;
  /** Aborts the import when the client has gone away: nobody is left to answer. */
  readonly signal?: AbortSignal;
}

/** How long the source may send nothing before the import is given up. */
export const IMPORT_IDLE_TIMEOUT_MS = 30_000;
export const IMPORT_MAX_REDIRECTS = 5;

/** The last path segment of a URL, decoded, as a file name; `download` when there is none. */
function fileNameOfUrl(url: string): string {
  const segment = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    name = segment;
  }
  name = name.replace(/[\u0000-\u001f\u007f/\\]/g, '').slice(0, 255);
  return name || 'download';
}

/**
 * Whatever else an import waits for after its fetch (storing the bytes, verifying them), in the lease of its
 * slot: a slot of a process that died lapses once no import of it can still be running.
 */
const SLOT_LEASE_MARGIN_MS = 60_000;

/**
 * POST /api/v1/files/import: fetches a file from a link (SSRF-guarded, the size limit enforced while it
 * streams in, the whole fetch within FETCH_DEADLINE_SECONDS, stopped when the client goes away), stores it
 * under a temporary key like an upload, then verifies and commits it exactly as a direct upload is committed.
 * The declared type is the source's Content-Type when it names a supported type, otherwise the type of the
 * magic numbers; either way the commit checks the bytes against it. An API key has at most
 * IMPORT_CONCURRENCY_PER_KEY imports in progress (fleet-wide); one more is 429 before anything is fetched.
 */
@Injectable()
export class ImportFileUseCase {
  private readonly slots: ConcurrencySlots;

  constructor(
    private readonly files: FileRepository,
    private readonly commit: CommitFileUseCase,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MEDIA_OPTIONS) private readonly options: MediaOptions,
    @Optional() @Inject(CONCURRENCY_SLOTS) slots?: ConcurrencySlots,
  ) {
    this.slots = slots ?? new MemoryConcurrencySlots();
  }

  async execute(command: ImportFileCommand): Promise<MediaFile> {
    const limit = this.options.importsPerKey;
    const slot = await this.slots.acquire(
      `imports:${command.principal.keyId}`,
      limit,
      this.options.fetchDeadlineMs + SLOT_LEASE_MARGIN_MS,
    );
    if (!slot) {
      const seconds = IMPORT_RETRY_AFTER_SECONDS;
      throw new DomainError(
        BusinessCode.RateLimited,
        'import.too_many',
        { limit, seconds },
        { 'retry-after': String(seconds) },
      );
    }
    try {
      return await this.run(command);
    } finally {
      await slot.release();
    }
  }

  private async run(command: ImportFileCommand): Promise<MediaFile> {
    const { accountId, keyId } = command.principal;
    const fetched = await fetchImport(command.url, {
      ...(command.accessToken !== undefined ? { accessToken: command.accessToken } : {}),
      ...this.options.fetch,
      maxBytes: MAX_AV_BYTES,
      idleTimeoutMs: IMPORT_IDLE_TIMEOUT_MS,
      deadlineMs: this.options.fetchDeadlineMs,
      maxRedirects: IMPORT_MAX_REDIRECTS,
      ...(command.signal ? { signal: command.signal } : {}),
    });
    // The client left while the last bytes came: nothing is stored for nobody.
    command.signal?.throwIfAborted();
    if (fetched.bytes.length === 0) throw fileRefused({ messageId: 'media.empty', params: {} });
    const contentType = mediaTypeOf(fetched.contentType ?? '') ?? (await detectMediaType(fetched.bytes));
    if (!contentType) throw new DomainError(BusinessCode.InvalidRequest, 'import.unsupported_content');
    if (fetched.bytes.length > maxBytesOf(contentType))
      throw fileTooLarge(contentType, maxBytesOf(contentType));
    const id = newId(IdPrefix.file);
    const tempKey = tempKeyOf(id);
    const now = this.clock.now();
    await this.files.insert({
      id,
      accountId,
      keyId,
      source: 'import',
      contentType,
      bytes: fetched.bytes.length,
      fileName: command.fileName ?? fileNameOfUrl(fetched.url),
      tempKey,
      expiresAt: now,
      sweepAt: new Date(now.getTime() + this.options.commitWindowSeconds * 1000),
      now,
    });
    await this.storage.put(tempKey, fetched.bytes, contentType);
    return this.commit.execute(accountId, id);
  }
}
