import { Inject, Injectable } from '@nestjs/common';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';

/** How long a preview link works: short, since each read of an asset or character signs a fresh one. */
export const PREVIEW_SECONDS = 15 * 60;

export interface PreviewLink {
  readonly previewUrl: string;
  readonly previewExpiresAt: string;
}

/** Signs the private, short-lived read links of stored files (presigned GET; no API key needed). */
@Injectable()
export class PreviewLinks {
  constructor(@Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage) {}

  async of(objectKey: string): Promise<PreviewLink> {
    const signed = await this.storage.presignGet({ key: objectKey, expiresInSeconds: PREVIEW_SECONDS });
    return { previewUrl: signed.url, previewExpiresAt: signed.expiresAt.toISOString() };
  }
}
