/** Spec, Limits: images up to 10 MiB; video and audio up to 100 MiB and 600 seconds. */
export const MiB = 1024 * 1024;
export const MAX_IMAGE_BYTES = 10 * MiB;
export const MAX_AV_BYTES = 100 * MiB;
export const MAX_MEDIA_SECONDS = 600;

export type MediaKind = 'image' | 'video' | 'audio';

/** The supported types, by the canonical name the service stores, signs and answers with. */
export const MEDIA_TYPES = {
  'image/jpeg': { kind: 'image', maxBytes: MAX_IMAGE_BYTES },
  'image/png': { kind: 'image', maxBytes: MAX_IMAGE_BYTES },
  'image/webp': { kind: 'image', maxBytes: MAX_IMAGE_BYTES },
  'image/gif': { kind: 'image', maxBytes: MAX_IMAGE_BYTES },
  'video/mp4': { kind: 'video', maxBytes: MAX_AV_BYTES },
  'video/webm': { kind: 'video', maxBytes: MAX_AV_BYTES },
  'audio/mpeg': { kind: 'audio', maxBytes: MAX_AV_BYTES },
  'audio/wav': { kind: 'audio', maxBytes: MAX_AV_BYTES },
} as const satisfies Record<string, { kind: MediaKind; maxBytes: number }>;

export type MediaType = keyof typeof MEDIA_TYPES;

/** Other names clients (and servers) use for the same types. */
const ALIASES: Readonly<Record<string, MediaType>> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'audio/mp3': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
};

/**
 * The canonical supported type a content type names (case and parameters ignored, aliases mapped), or null
 * when it names none.
 */
export function mediaTypeOf(contentType: string): MediaType | null {
  const bare = contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (Object.hasOwn(MEDIA_TYPES, bare)) return bare as MediaType;
  return ALIASES[bare] ?? null;
}

/** The largest upload of a type. */
export const maxBytesOf = (type: MediaType): number => MEDIA_TYPES[type].maxBytes;

export const kindOf = (type: MediaType): MediaKind => MEDIA_TYPES[type].kind;

/** The supported types as the API lists them. */
export const SUPPORTED_TYPES: readonly MediaType[] = Object.keys(MEDIA_TYPES) as MediaType[];
