import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, IdPrefix, type ApiKeyPrincipal } from '@gen/contracts';
import { CLOCK, DomainError, newId, type Clock } from '@gen/core';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { tempKeyOf } from '../domain/file-keys';
import { detectMediaType } from '../domain/inspect-media';
import type { MediaFile } from '../domain/media-file';
import { MEDIA_OPTIONS, type MediaOptions } from '../domain/media-options';
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
 * POST /api/v1/files/import: fetches a file from a link (SSRF-guarded, the size limit enforced while it
 * streams in), stores it under a temporary key like an upload, then verifies and commits it exactly as a
 * direct upload is committed. The declared type is the source's Content-Type when it names a supported type,
 * otherwise the type of the magic numbers; either way the commit checks the bytes against it.
 */
@Injectable()
export class ImportFileUseCase {
  constructor(
    private readonly files: FileRepository,
    private readonly commit: CommitFileUseCase,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MEDIA_OPTIONS) private readonly options: MediaOptions,
  ) {}

  async execute(command: ImportFileCommand): Promise<MediaFile> {
    const { accountId, keyId } = command.principal;
    const fetched = await fetchImport(command.url, {
      ...(command.accessToken !== undefined ? { accessToken: command.accessToken } : {}),
      ...this.options.fetch,
      maxBytes: MAX_AV_BYTES,
      idleTimeoutMs: IMPORT_IDLE_TIMEOUT_MS,
      maxRedirects: IMPORT_MAX_REDIRECTS,
    });
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
