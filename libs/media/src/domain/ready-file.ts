import { serviceFileUri, type ReadyFile } from '@gen/contracts';
import type { MediaFile } from './media-file';

/** The port's view of a ready file; null for a file that is not ready. */
export function readyFileOf(file: MediaFile): ReadyFile | null {
  if (file.state !== 'ready' || !file.facts || !file.objectKey || !file.committedAt) return null;
  const { facts } = file;
  return {
    fileId: file.id,
    accountId: file.accountId,
    uri: serviceFileUri(file.id),
    state: 'ready',
    contentType: file.contentType,
    bytes: file.bytes,
    sha256: facts.sha256,
    ...(facts.width !== undefined ? { width: facts.width, height: facts.height } : {}),
    ...(facts.durationSeconds !== undefined ? { durationSeconds: facts.durationSeconds } : {}),
    fileName: file.fileName,
    objectKey: file.objectKey,
    createdAt: file.committedAt,
  };
}
