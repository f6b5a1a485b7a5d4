/**
 * Media files in task input (spec: Media, "a committed file is referenced as a `service://` URI in task
 * input"; "a public HTTPS media URL can be passed directly in supported input fields"). A model's inputSchema
 * marks the fields that take one (`"format": "media-uri"` and `"x-media": "image" | "audio" | "video"`, see
 * docs/catalog.md); the tasks domain checks `service://` URIs at acceptance (FILES_PORT), and the runner
 * resolves every such field to bytes (MEDIA_INPUTS) before the model runs.
 */

export const MEDIA_KINDS = ['image', 'audio', 'video'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** The JSON Schema `format` of a media field, and the keyword that names the kind of media it takes. */
export const MEDIA_URI_FORMAT = 'media-uri';
export const MEDIA_KIND_KEYWORD = 'x-media';

/** A field of a model's input that takes a media file. */
export interface MediaField {
  /** The property of the input (media fields are top-level properties). */
  readonly field: string;
  readonly kind: MediaKind;
}

/** A media field as a request fills it: `service://files/fil_...` or an `https://` URL. */
export interface MediaInputValue extends MediaField {
  readonly value: string;
}

/** A media input read to its bytes, measured when it was verified. */
export interface ResolvedMedia {
  readonly bytes: Buffer;
  /** The canonical type found from the bytes (`image/png`, `video/mp4`, ...). */
  readonly contentType: string;
  readonly width?: number;
  readonly height?: number;
  readonly durationSeconds?: number;
}

/**
 * Why a media input could not be used; each is the `errorCode` of the task it fails (never charged).
 * `input_unavailable`: a `service://` file that is gone (or not the task's account's), or a URL refused by the
 * SSRF guard, unreachable, answering other than 200, or larger than the limit of uploads;
 * `input_invalid`: bytes that are not a supported file of the field's kind.
 */
export const MEDIA_INPUT_ERROR_CODES = ['input_unavailable', 'input_invalid'] as const;
export type MediaInputErrorCode = (typeof MEDIA_INPUT_ERROR_CODES)[number];

export class MediaInputError extends Error {
  override readonly name = 'MediaInputError';
  constructor(
    readonly errorCode: MediaInputErrorCode,
    /** For the log only (never shown to the client): what went wrong, without URL queries or tokens. */
    readonly detail: string,
  ) {
    super(`media input: ${errorCode}: ${detail}`);
  }
}

/** Implemented by the media domain (`libs/media`); used by the runner. */
export interface MediaInputsPort {
  /**
   * The bytes of `value` for a task of `accountId`: a `service://` file of that account read from object
   * storage, or an `https://` URL fetched through the SSRF guard with the limits of uploads, verified as
   * a file of `kind`. Rejects with a MediaInputError, or with the signal's reason when it aborts.
   */
  resolve(accountId: string, value: string, kind: MediaKind, signal: AbortSignal): Promise<ResolvedMedia>;
}

export const MEDIA_INPUTS = Symbol('MEDIA_INPUTS');
