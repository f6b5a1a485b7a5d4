import { fileIdOfUri, serviceFileUri, type FilesPort, type ReadyFile } from '@gen/contracts';

/**
 * An in-memory FilesPort for tests of the asset library: ready files are added by the test; a lookup by
 * another account, or of a file never added, finds nothing (as the media domain's port answers).
 */
export class MemoryFilesPort implements FilesPort {
  private readonly files = new Map<string, ReadyFile>();
  private serial = 0;

  /** Adds a ready file of `accountId` and returns it. */
  add(
    accountId: string,
    facts: Partial<Pick<ReadyFile, 'contentType' | 'bytes' | 'fileName' | 'width' | 'height'>> = {},
  ): ReadyFile {
    this.serial += 1;
    const fileId = `fil_${String(this.serial).padStart(4, '0')}${Math.random().toString(36).slice(2, 10)}`;
    const file: ReadyFile = {
      fileId,
      accountId,
      uri: serviceFileUri(fileId),
      state: 'ready',
      contentType: facts.contentType ?? 'image/png',
      bytes: facts.bytes ?? 1024,
      sha256: '0'.repeat(64),
      objectKey: `files/${accountId}/${fileId}`,
      createdAt: new Date('2026-11-28T00:00:00.000Z'),
      ...(facts.fileName !== undefined ? { fileName: facts.fileName } : {}),
      ...(facts.width !== undefined ? { width: facts.width } : {}),
      ...(facts.height !== undefined ? { height: facts.height } : {}),
    };
    this.files.set(fileId, file);
    return file;
  }

  /** Forgets a file, as retention would remove it. */
  remove(fileId: string): void {
    this.files.delete(fileId);
  }

  async findReady(accountId: string, uriOrId: string): Promise<ReadyFile | null> {
    const fileId = fileIdOfUri(uriOrId) ?? uriOrId;
    const file = this.files.get(fileId);
    return file && file.accountId === accountId ? file : null;
  }
}
