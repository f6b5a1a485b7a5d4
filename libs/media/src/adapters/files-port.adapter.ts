import { Injectable } from '@nestjs/common';
import { fileIdOfUri, type FilesPort, type ReadyFile } from '@gen/contracts';
import { ulidIdPattern } from '@gen/core';
import { readyFileOf } from '../domain/ready-file';
import { FileRepository } from '../persistence/file.repository';

const FILE_ID = new RegExp(ulidIdPattern('fil'));

/** FILES_PORT: the ready files of an account, by `service://files/...` URI or bare id. */
@Injectable()
export class FilesPortAdapter implements FilesPort {
  constructor(private readonly files: FileRepository) {}

  async findReady(accountId: string, uriOrId: string): Promise<ReadyFile | null> {
    const fileId = uriOrId.startsWith('fil_') ? uriOrId : fileIdOfUri(uriOrId);
    if (!fileId || !FILE_ID.test(fileId)) return null;
    const file = await this.files.find(accountId, fileId);
    return file ? readyFileOf(file) : null;
  }
}
