import { Inject, Injectable } from '@nestjs/common';
import { IdPrefix, type ApiKeyPrincipal } from '@gen/contracts';
import { CLOCK, newId, type Clock } from '@gen/core';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { tempKeyOf } from '../domain/file-keys';
import { MEDIA_OPTIONS, type MediaOptions } from '../domain/media-options';
import { fileRefused, fileTooLarge, unsupportedType } from '../domain/media.errors';
import { maxBytesOf, mediaTypeOf } from '../domain/media-types';
import { FileRepository } from '../persistence/file.repository';

export interface UploadTicketCommand {
  readonly principal: ApiKeyPrincipal;
  readonly fileName: string;
  readonly contentType: string;
  readonly bytes: number;
}

export interface UploadTicket {
  readonly fileId: string;
  readonly uploadUrl: string;
  readonly method: 'PUT';
  readonly headers: Readonly<Record<string, string>>;
  readonly expiresAt: string;
}

/**
 * POST /api/v1/common/upload-url: a pending file and the presigned PUT that must bring exactly its bytes,
 * with exactly its (canonical) content type, before the URL expires. The object key is the service's.
 */
@Injectable()
export class CreateUploadTicketUseCase {
  constructor(
    private readonly files: FileRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MEDIA_OPTIONS) private readonly options: MediaOptions,
  ) {}

  async execute(command: UploadTicketCommand): Promise<UploadTicket> {
    const { accountId, keyId } = command.principal;
    const contentType = mediaTypeOf(command.contentType);
    if (!contentType) throw unsupportedType(command.contentType);
    if (command.bytes === 0) throw fileRefused({ messageId: 'media.empty', params: {} });
    if (command.bytes > maxBytesOf(contentType)) throw fileTooLarge(contentType, maxBytesOf(contentType));
    const id = newId(IdPrefix.file);
    const tempKey = tempKeyOf(id);
    const signed = await this.storage.presignPut({
      key: tempKey,
      contentType,
      contentLength: command.bytes,
      expiresInSeconds: this.options.uploadUrlSeconds,
    });
    await this.files.insert({
      id,
      accountId,
      keyId,
      source: 'upload',
      contentType,
      bytes: command.bytes,
      fileName: command.fileName,
      tempKey,
      expiresAt: signed.expiresAt,
      sweepAt: new Date(signed.expiresAt.getTime() + this.options.commitWindowSeconds * 1000),
      now: this.clock.now(),
    });
    return {
      fileId: id,
      uploadUrl: signed.url,
      method: 'PUT',
      headers: signed.headers,
      expiresAt: signed.expiresAt.toISOString(),
    };
  }
}
