import { envelopeResponse, errorResponses } from '@gen/edge';
import type { TSchema } from '@sinclair/typebox';
import { ASSET_PLANS } from '../domain/asset-plans';

/**
 * What the asset library's `@ApiOperation`s share: the example records, the words about scope, quotas and the
 * Idempotency-Key, and the words for parameters whose schemas their pipes give.
 */

const FILE = 'fil_01JDZ8Q4K3M5N7P9R1S3T5V7X9';
export const ASSET = {
  assetId: 'ast_01JDZ9A2B4C6D8E0F2G4H6J8K0',
  name: 'fox sketch',
  favorite: true,
  collectionId: 'col_moodboard',
  uri: `service://files/${FILE}`,
  contentType: 'image/png',
  bytes: 48213,
  createdAt: '2026-11-28T09:30:00.000Z',
  updatedAt: '2026-11-28T09:30:00.000Z',
  previewUrl: `https://media.example.com/objects/v1/files/${FILE}?expires=1795858200&sig=3q2-7w`,
  previewExpiresAt: '2026-11-28T09:45:00.000Z',
};
export const ENTITY = {
  entityId: 'ent_01JDZB3C5D7E9F1G3H5J7K9M1N',
  name: 'Captain Mira',
  images: [
    {
      uri: `service://files/${FILE}`,
      contentType: 'image/png',
      previewUrl: ASSET.previewUrl,
      previewExpiresAt: ASSET.previewExpiresAt,
    },
  ],
  createdAt: '2026-11-27T08:00:00.000Z',
};
export const USAGE = {
  plan: 'free',
  usedBytes: 48213,
  assetCount: 1,
  limits: { bytes: ASSET_PLANS.free.bytes, count: ASSET_PLANS.free.count },
};
export const ACCOUNT_ID = 'acc_01JDZ7X1Y3Z5A7B9C1D3E5F7G9';

const ok = (data: unknown) => ({
  code: 200,
  msg: 'success',
  data,
  request_id: 'req_01JDZ9A2B4C6D8E0F2G4H6J8K1',
});

/** The success response with an example envelope. */
export function answer(description: string, schema: TSchema, example: unknown): Record<string, unknown> {
  const response = envelopeResponse(description, schema) as Record<string, Record<string, unknown>>;
  const success = response['200']!;
  const content = success['content'] as Record<string, Record<string, unknown>>;
  return {
    '200': {
      ...success,
      content: { 'application/json': { ...content['application/json'], example: ok(example) } },
    },
  };
}

/** `answer` and the error responses `errors`. */
export const responses = (
  description: string,
  schema: TSchema,
  example: unknown,
  errors: number[],
): Record<string, unknown> => ({ ...answer(description, schema, example), ...errorResponses(errors) });

/** Words for a path or query parameter whose schema its pipe gives. */
const words = (location: 'path' | 'query', name: string, description: string) => ({
  name,
  in: location,
  description,
});

export const ASSET_ID_WORDS = words('path', 'assetId', 'Asset id (`ast_...`).');
export const ENTITY_ID_WORDS = words('path', 'entityId', 'Character id (`ent_...`).');
export const ACCOUNT_ID_WORDS = words('path', 'accountId', 'Account id (`acc_...`).');
export const PAGING_WORDS = [
  words('query', 'limit', '1 to 100, default 20.'),
  words('query', 'cursor', '`nextCursor` of the previous page.'),
];
export const LIST_ASSETS_WORDS = [
  words('query', 'favorite', 'Only favorites, or only the others.'),
  words('query', 'collectionId', 'Only this collection.'),
  words('query', 'q', 'Names containing this text, ignoring case.'),
  words(
    'query',
    'sort',
    '`createdAt`, `-createdAt` (default), `name`, `-name`; ties by assetId in the same direction.',
  ),
  ...PAGING_WORDS,
];

export const ADMIN_SECURITY = [{ adminToken: [] }];

export const SCOPE =
  'The library is the account’s (a choice of ours; the specification scopes task history and usage to the API key, not the library): every API key of the account sees, changes and deletes the same assets, and the limits count them all. Another account’s asset is 404.';
export const QUOTA = `Quotas (per account, from its plan; operators set plan and limits with \`PUT /admin/v1/accounts/{accountId}/asset-limits\` or the CLI): ${Object.entries(
  ASSET_PLANS,
)
  .map(([plan, limits]) => `\`${plan}\` ${limits.bytes} bytes and ${limits.count} assets`)
  .join(
    ', ',
  )}; an account nobody set is on \`free\`. An asset counts the bytes of its file (two assets of one file count twice). A save that would pass the count or the byte limit is **403 with business code 403** and a message naming the limit; nothing is written and usage is unchanged. Not retryable without a change: delete assets, or ask for larger limits.`;

/** A header no pipe checks (the use case does): documented whole. */
export const IDEMPOTENCY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  description:
    'Required (400 without it). Within 24 hours, per account: the same API key with the same body (defaults filled in: `{uri}` equals `{uri, favorite: false}`) gets the asset it saved, as it is now, with a fresh preview link, and saves nothing again; another body is 409; another API key of the account is 409. A key whose asset was deleted since is 404. After 24 hours the key is new again.',
};
