import type { Readable } from 'node:stream';

/** A URL the client uses directly, without API credentials, until `expiresAt`. */
export interface SignedUrl {
  readonly url: string;
  readonly expiresAt: Date;
  /** Headers the client must send exactly (upload tickets: content type and length). */
  readonly headers: Readonly<Record<string, string>>;
}

export interface PresignPutRequest {
  readonly key: string;
  readonly contentType: string;
  /** The exact byte count the upload must have. */
  readonly contentLength: number;
  readonly expiresInSeconds: number;
}

export interface PresignGetRequest {
  readonly key: string;
  readonly expiresInSeconds: number;
}

export interface StoredObject {
  readonly key: string;
  readonly bytes: number;
  readonly contentType: string | undefined;
}

/** An object with its bytes as a stream, read from the start. */
export interface ReadableObject extends StoredObject {
  readonly stream: Readable;
}

/** An object read whole into memory. */
export interface ObjectBytes extends StoredObject {
  /** Its bytes, in one buffer; null when it has more than the `maxBytes` asked for (they are not read). */
  readonly body: Buffer | null;
}

/**
 * The object storage port: a local directory with HMAC-signed URLs in embedded mode, S3 in distributed mode.
 * Keys are chosen by the service, never by the client.
 */
export interface ObjectStorage {
  presignPut(request: PresignPutRequest): Promise<SignedUrl>;
  presignGet(request: PresignGetRequest): Promise<SignedUrl>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  head(key: string): Promise<StoredObject | null>;
  /** The object's bytes as a stream (the caller consumes or destroys it), or null when there is none. */
  read(key: string): Promise<ReadableObject | null>;
  /**
   * The object's bytes in one buffer when it has at most `maxBytes` (a media commit verifies whole files), or
   * null when there is none.
   */
  readBytes(key: string, maxBytes: number): Promise<ObjectBytes | null>;
  copy(fromKey: string, toKey: string): Promise<void>;
  /**
   * Moves the object at `fromKey` to `toKey` (replacing what is there), as it is at that moment: a write to
   * `fromKey` after it makes a new object there and leaves `toKey` alone. False, changing nothing, when there is
   * no object at `fromKey`. A rename in the local directory; a server-side copy and a delete on S3.
   */
  move(fromKey: string, toKey: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * Keys of up to `limit` objects under `prefix` (which ends with `/`) last written before `before`, in no set
   * order: what a retention sweep deletes.
   */
  listOlder(prefix: string, before: Date, limit: number): Promise<string[]>;
}
export const OBJECT_STORAGE = Symbol('ObjectStorage');
