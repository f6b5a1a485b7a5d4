import { Type, type Static } from '@sinclair/typebox';
import { IdPrefix, serviceFileUri } from '@gen/contracts';
import { idSchema } from '@gen/core';
import type { MediaFile } from '../domain/media-file';
import { MAX_AV_BYTES, SUPPORTED_TYPES } from '../domain/media-types';

/** A file id as the service makes it (`fil_` and a ULID); any other text is 400 before any lookup. */
export const FileId = idSchema(IdPrefix.file);

/** A file name: metadata only (never part of an object key), without control characters or slashes. */
const FileName = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[^\\u0000-\\u001f\\u007f/\\\\]+$',
  description:
    'Shown back in the file record; never used as a storage key. No control characters or slashes.',
});

export const UploadUrlBody = Type.Object(
  {
    fileName: FileName,
    contentType: Type.String({
      minLength: 1,
      maxLength: 255,
      description: `One of ${SUPPORTED_TYPES.join(', ')} (case-insensitive; image/jpg, audio/mp3, audio/x-wav and audio/wave are accepted as aliases). Anything else: 400.`,
    }),
    bytes: Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description:
        'The exact size of the upload. Images up to 10 MiB (10485760), video and audio up to 100 MiB (104857600): 413 above. 0: 400.',
    }),
  },
  {
    additionalProperties: false,
    examples: [{ fileName: 'sketch.png', contentType: 'image/png', bytes: 48213 }],
  },
);
export type UploadUrlBody = Static<typeof UploadUrlBody>;

export const UploadTicketResult = Type.Object(
  {
    fileId: Type.String({ pattern: '^fil_' }),
    uploadUrl: Type.String({
      description: 'Send the bytes here with `method` and every header in `headers`.',
    }),
    method: Type.Literal('PUT'),
    headers: Type.Record(Type.String(), Type.String(), {
      description: 'Headers to send exactly: content-type (the canonical type) and content-length.',
    }),
    expiresAt: Type.String({
      format: 'date-time',
      description: 'The upload URL stops working then (15 minutes).',
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        fileId: 'fil_01JD8ZK3W4C6T2M7Q9R5X1Y0AB',
        uploadUrl:
          'https://api.example.com/objects/v1/tmp/uploads/fil_01JD8ZK3W4C6T2M7Q9R5X1Y0AB?X-Expires=1764581400&X-Content-Type=image%2Fpng&X-Content-Length=48213&X-Signature=...',
        method: 'PUT',
        headers: { 'content-type': 'image/png', 'content-length': '48213' },
        expiresAt: '2026-12-01T09:30:00.000Z',
      },
    ],
  },
);

export const ImportBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'https on port 443, no user name or password; every address the host resolves to must be public (FETCH_ALLOW_PRIVATE_CIDRS excepted), checked again when connecting. Redirects are followed (at most 5) only to URLs that pass the same checks.',
    }),
    accessToken: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4096,
        pattern: '^[\\x21-\\x7e]+$',
        description:
          'Sent once as `Authorization: Bearer <accessToken>` to `url` (never to a redirect target); never stored or logged.',
      }),
    ),
    fileName: Type.Optional(FileName),
  },
  {
    additionalProperties: false,
    examples: [
      {
        url: 'https://downloads.example.com/clips/intro.mp4',
        accessToken: 'hf_abc123',
        fileName: 'intro.mp4',
      },
    ],
  },
);
export type ImportBody = Static<typeof ImportBody>;

export const FileRecord = Type.Object(
  {
    fileId: Type.String({ pattern: '^fil_' }),
    uri: Type.String({
      pattern: '^service://files/fil_',
      description: 'Use it in task input fields that take media, and in the asset library.',
    }),
    state: Type.Literal('ready'),
    contentType: Type.Union(
      SUPPORTED_TYPES.map((t) => Type.Literal(t)),
      { description: 'Detected from the bytes; equal to the declared type.' },
    ),
    bytes: Type.Integer({ minimum: 1, maximum: MAX_AV_BYTES }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Of the stored bytes.' }),
    width: Type.Optional(Type.Integer({ minimum: 1, description: 'Images and video, in pixels.' })),
    height: Type.Optional(Type.Integer({ minimum: 1 })),
    durationSeconds: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 600,
        description: 'Audio and video, measured from the bytes.',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        fileId: 'fil_01JD8ZK3W4C6T2M7Q9R5X1Y0AB',
        uri: 'service://files/fil_01JD8ZK3W4C6T2M7Q9R5X1Y0AB',
        state: 'ready',
        contentType: 'image/png',
        bytes: 48213,
        sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        width: 512,
        height: 512,
      },
    ],
  },
);
export type FileRecord = Static<typeof FileRecord>;

/** The wire record of a ready file. */
export function fileRecordOf(file: MediaFile): FileRecord {
  const facts = file.facts!;
  return {
    fileId: file.id,
    uri: serviceFileUri(file.id),
    state: 'ready',
    contentType: file.contentType,
    bytes: file.bytes,
    sha256: facts.sha256,
    ...(facts.width !== undefined ? { width: facts.width, height: facts.height } : {}),
    ...(facts.durationSeconds !== undefined ? { durationSeconds: facts.durationSeconds } : {}),
  };
}
