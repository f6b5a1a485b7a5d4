import { Inject, Injectable } from '@nestjs/common';
import {
  MediaInputError,
  fileIdOfUri,
  type MediaInputsPort,
  type MediaKind,
  type ReadyFile,
  type ResolvedMedia,
} from '@gen/contracts';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { fetchGuarded, GuardedFetchError } from '@gen/ssrf';
import { detectMediaType, inspectMedia } from '../domain/inspect-media';
import { MEDIA_OPTIONS, type MediaOptions } from '../domain/media-options';
import { MAX_AV_BYTES, MAX_IMAGE_BYTES, kindOf, maxBytesOf, mediaTypeOf } from '../domain/media-types';
import { FETCH_USER_AGENT } from '../outbound/import-fetch';
import { FilesPortAdapter } from '../adapters/files-port.adapter';
import { IMPORT_IDLE_TIMEOUT_MS, IMPORT_MAX_REDIRECTS } from './import-file.use-case';

const facts = (source: Pick<ReadyFile, 'width' | 'height' | 'durationSeconds'>) => ({
  ...(source.width !== undefined ? { width: source.width } : {}),
  ...(source.height !== undefined ? { height: source.height } : {}),
  ...(source.durationSeconds !== undefined ? { durationSeconds: source.durationSeconds } : {}),
});

/**
 * MEDIA_INPUTS: a media field of a task's input read to its bytes, for the runner. A `service://` URI must
 * still name a ready file of the task's account (checked again here: acceptance checked it too, but the
 * runner trusts nothing it did not check itself); its bytes are read from object storage. An https URL is
 * fetched through the guard of imports and callbacks (FETCH_ALLOW_PRIVATE_CIDRS, FETCH_CA_FILE) with the
 * limits of uploads and the deadline of imports (FETCH_DEADLINE_SECONDS), and verified as an upload is. Failures are MediaInputErrors (the task's errorCode).
 */
@Injectable()
export class ResolveMediaInputUseCase implements MediaInputsPort {
  constructor(
    private readonly files: FilesPortAdapter,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(MEDIA_OPTIONS) private readonly options: MediaOptions,
  ) {}

  async resolve(
    accountId: string,
    value: string,
    kind: MediaKind,
    signal: AbortSignal,
  ): Promise<ResolvedMedia> {
    signal.throwIfAborted();
    const resolved =
      fileIdOfUri(value) !== null
        ? await this.fromFile(accountId, value, kind)
        : await this.fromUrl(value, kind, signal);
    signal.throwIfAborted();
    return resolved;
  }

  private async fromFile(accountId: string, uri: string, kind: MediaKind): Promise<ResolvedMedia> {
    const file = await this.files.findReady(accountId, uri);
    if (!file) throw new MediaInputError('input_unavailable', "no ready file of the task's account");
    if (!file.contentType.startsWith(`${kind}/`)) {
      throw new MediaInputError('input_invalid', `the file is ${file.contentType}, the field takes ${kind}`);
    }
    const bytes = (await this.storage.readBytes(file.objectKey, file.bytes))?.body;
    if (!bytes || bytes.length !== file.bytes) {
      throw new MediaInputError('input_unavailable', 'the stored bytes of the file are missing or changed');
    }
    return { bytes, contentType: file.contentType, ...facts(file) };
  }

  private async fromUrl(url: string, kind: MediaKind, signal: AbortSignal): Promise<ResolvedMedia> {
    let fetched;
    try {
      fetched = await fetchGuarded(url, {
        ...this.options.fetch,
        userAgent: FETCH_USER_AGENT,
        maxBytes: kind === 'image' ? MAX_IMAGE_BYTES : MAX_AV_BYTES,
        idleTimeoutMs: IMPORT_IDLE_TIMEOUT_MS,
        deadlineMs: this.options.fetchDeadlineMs,
        maxRedirects: IMPORT_MAX_REDIRECTS,
        signal,
      });
    } catch (error) {
      if (!(error instanceof GuardedFetchError)) throw error;
      throw new MediaInputError('input_unavailable', `the URL could not be fetched: ${error.message}`);
    }
    const { bytes } = fetched;
    const type = mediaTypeOf(fetched.contentType ?? '') ?? (await detectMediaType(bytes));
    if (!type || kindOf(type) !== kind) {
      throw new MediaInputError('input_invalid', `the URL's content is not a supported ${kind} file`);
    }
    if (bytes.length > maxBytesOf(type)) {
      throw new MediaInputError(
        'input_unavailable',
        `the URL's ${type} file is larger than ${maxBytesOf(type)} bytes`,
      );
    }
    const inspection = await inspectMedia(bytes, type);
    if (!inspection.ok) {
      throw new MediaInputError(
        'input_invalid',
        `the URL's file was refused: ${inspection.refusal.messageId}`,
      );
    }
    return { bytes, contentType: type, ...facts(inspection.facts) };
  }
}
