import { randomUUID } from 'node:crypto';
import {
  FILES_PORT,
  MEDIA_INPUTS,
  MEDIA_INPUT_ERROR_CODES,
  MEDIA_INPUT_TRANSIT_PREFIX,
  MEDIA_KINDS,
  MediaInputError,
  type FilesPort,
  type MediaInputErrorCode,
  type MediaInputsPort,
  type MediaKind,
  type ReadyFile,
  type ResolvedMedia,
} from '@gen/contracts';
import { portContract, type PortIo } from '../port-contract';
import { WireFormatError, dateFromWire, dateToWire, objectFromWire } from './wire-values';

export const FILES_TIMEOUT_MS = 5000;

/**
 * How long the runner waits for a media input: the media app may be fetching a URL of up to 100 MiB (each read
 * bounded by the import idle timeout). The runner's own signal (its stop, the task's deadline) ends the wait
 * sooner.
 */
export const MEDIA_INPUT_TIMEOUT_MS = 300_000;

/**
 * Media inputs up to this size travel in the reply (base64). Larger ones go through object storage: the media
 * app writes the verified bytes under `transit/media-inputs/`, the runner reads and deletes them (the media
 * app's retention sweep removes what a runner never read), so that no
 * call carries more than a few MB (the TCP transport holds a message whole, and one large reply would hold up
 * every call behind it on the connection).
 */
export const MEDIA_INPUT_INLINE_BYTES = 4 * 1024 * 1024;

function readyFileFromWire(wire: unknown): ReadyFile {
  const fields = objectFromWire(wire, 'the ready file');
  for (const name of ['fileId', 'accountId', 'uri', 'contentType', 'sha256', 'objectKey']) {
    if (typeof fields[name] !== 'string') throw new WireFormatError('the ready file');
  }
  if (fields['state'] !== 'ready' || typeof fields['bytes'] !== 'number') {
    throw new WireFormatError('the ready file');
  }
  return {
    ...(fields as unknown as ReadyFile),
    createdAt: dateFromWire(fields['createdAt'], 'the ready file'),
  };
}

/** FILES_PORT (answered by the media app): a ready file's `createdAt` crosses as ISO 8601. */
export const FILES_CONTRACT = portContract<FilesPort>({
  token: FILES_PORT,
  service: 'media',
  port: 'files',
  methods: {
    findReady: {
      timeoutMs: FILES_TIMEOUT_MS,
      encodeResult: (file) => (file ? { ...file, createdAt: dateToWire(file.createdAt) } : null),
      decodeResult: (wire) => (wire === null || wire === undefined ? null : readyFileFromWire(wire)),
    },
  },
});

/** A resolved media input on the wire: its bytes inline, or the transit object that holds them. */
type ResolvedMediaWire = Omit<ResolvedMedia, 'bytes'> &
  ({ readonly base64: string } | { readonly transitKey: string; readonly size: number });

const facts = (media: Omit<ResolvedMedia, 'bytes'>) => ({
  contentType: media.contentType,
  ...(media.width !== undefined ? { width: media.width } : {}),
  ...(media.height !== undefined ? { height: media.height } : {}),
  ...(media.durationSeconds !== undefined ? { durationSeconds: media.durationSeconds } : {}),
});

async function encodeResolved(media: ResolvedMedia, io: PortIo): Promise<ResolvedMediaWire> {
  if (media.bytes.length <= MEDIA_INPUT_INLINE_BYTES || !io.objects) {
    return { ...facts(media), base64: media.bytes.toString('base64') };
  }
  const transitKey = `${MEDIA_INPUT_TRANSIT_PREFIX}${randomUUID()}`;
  await io.objects.put(transitKey, media.bytes, media.contentType);
  return { ...facts(media), transitKey, size: media.bytes.length };
}

async function decodeResolved(wire: unknown, io: PortIo): Promise<ResolvedMedia> {
  const fields = objectFromWire(wire, 'the media input');
  if (typeof fields['contentType'] !== 'string') throw new WireFormatError('the media input');
  const known = facts(fields as unknown as ResolvedMedia);
  if (typeof fields['base64'] === 'string') {
    return { ...known, bytes: Buffer.from(fields['base64'], 'base64') };
  }
  const { transitKey, size } = fields;
  if (typeof transitKey !== 'string' || !transitKey.startsWith(MEDIA_INPUT_TRANSIT_PREFIX)) {
    throw new WireFormatError('the media input');
  }
  if (typeof size !== 'number' || !io.objects) throw new WireFormatError('the media input');
  try {
    const stored = await io.objects.readBytes(transitKey, size);
    if (!stored?.body || stored.body.length !== size) {
      throw new MediaInputError('input_unavailable', 'the media input in transit is missing or changed');
    }
    return { ...known, bytes: stored.body };
  } finally {
    await io.objects.delete(transitKey).catch(() => undefined);
  }
}

const isErrorCode = (value: unknown): value is MediaInputErrorCode =>
  (MEDIA_INPUT_ERROR_CODES as readonly unknown[]).includes(value);

/**
 * MEDIA_INPUTS (answered by the media app): the bytes cross inline or through object storage (above); a
 * `MediaInputError` (the task's errorCode) crosses as data; the caller's AbortSignal stays with the caller,
 * which stops waiting when it aborts, while the media app stops its work at the method's timeout.
 */
export const MEDIA_INPUTS_CONTRACT = portContract<MediaInputsPort>({
  token: MEDIA_INPUTS,
  service: 'media',
  port: 'mediaInputs',
  methods: {
    resolve: {
      timeoutMs: MEDIA_INPUT_TIMEOUT_MS,
      signalOf: (args) => args[3],
      encodeArgs: ([accountId, value, kind]) => [accountId, value, kind],
      decodeArgs: ([accountId, value, kind], signal) => {
        if (
          typeof accountId !== 'string' ||
          typeof value !== 'string' ||
          !(MEDIA_KINDS as readonly unknown[]).includes(kind)
        ) {
          throw new WireFormatError('the media input request');
        }
        return [accountId, value, kind as MediaKind, signal];
      },
      encodeResult: encodeResolved,
      decodeResult: decodeResolved,
      encodeFailure: (error) =>
        error instanceof MediaInputError ? { errorCode: error.errorCode, detail: error.detail } : undefined,
      decodeFailure: (wire) => {
        const fields = objectFromWire(wire, 'the media input failure');
        if (!isErrorCode(fields['errorCode']) || typeof fields['detail'] !== 'string') {
          throw new WireFormatError('the media input failure');
        }
        return new MediaInputError(fields['errorCode'], fields['detail']);
      },
    },
  },
});
