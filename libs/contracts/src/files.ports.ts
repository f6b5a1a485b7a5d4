/**
 * Committed media files (spec: Media; Upload and download tickets, files). Implemented by the media domain
 * (`libs/media`); used by the asset library, by createTask (a `service://` URI in task input must name a
 * ready file of the caller's own account) and by the runner (which reads the bytes).
 */

/** `service://files/fil_...`: how a committed file is referenced in task input and in the asset library. */
export const SERVICE_FILE_URI = /^service:\/\/files\/(fil_[A-Za-z0-9_-]{1,64})$/;

export const serviceFileUri = (fileId: string): string => `service://files/${fileId}`;

/** The file id of a `service://files/...` URI, or null when the string is not one. */
export function fileIdOfUri(uri: string): string | null {
  return SERVICE_FILE_URI.exec(uri)?.[1] ?? null;
}

/** A committed (verified, hashed, immutable) file. */
export interface ReadyFile {
  readonly fileId: string;
  readonly accountId: string;
  /** `service://files/<fileId>`. */
  readonly uri: string;
  readonly state: 'ready';
  /** The type detected from the stored bytes (equal to the one the ticket declared). */
  readonly contentType: string;
  readonly bytes: number;
  /** Hex SHA-256 of the stored bytes. */
  readonly sha256: string;
  readonly width?: number;
  readonly height?: number;
  readonly durationSeconds?: number;
  readonly fileName?: string;
  /** The immutable private object key of its bytes in object storage. */
  readonly objectKey: string;
  readonly createdAt: Date;
}

export interface FilesPort {
  /**
   * The ready file a `service://files/...` URI (or a bare `fil_...` id) names, when it belongs to `accountId`;
   * null otherwise. Another account's file and a file that does not exist are indistinguishable (reveals
   * nothing).
   */
  findReady(accountId: string, uriOrId: string): Promise<ReadyFile | null>;
}

export const FILES_PORT = Symbol('FILES_PORT');

/**
 * Where media inputs too large for a service call's reply cross between the media app and the runner (object
 * storage keys; see MEDIA_INPUTS_CONTRACT in libs/transport). The media app's retention sweep removes those a
 * runner never read.
 */
export const MEDIA_INPUT_TRANSIT_PREFIX = 'transit/media-inputs/';
