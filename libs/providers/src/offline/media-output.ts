/**
 * Billable quantities, named after the catalog's media price keys: `images` for `perImage`, `megapixels` for
 * `perMegapixel`, `seconds` for `perSecond`. A model reports the ones it can be priced by.
 */
export interface MediaUsage {
  readonly images?: number;
  readonly megapixels?: number;
  readonly seconds?: number;
}

/** One generated file: the bytes to store, with the facts the task record shows about it. */
export interface MediaOutput {
  readonly bytes: Buffer;
  readonly contentType: string;
  readonly width?: number;
  readonly height?: number;
  readonly durationSeconds?: number;
}
