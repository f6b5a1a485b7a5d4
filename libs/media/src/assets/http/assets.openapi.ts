import { envelopeResponse, errorResponses, type OpenApiFragment } from '@gen/edge';
import type { TSchema } from '@sinclair/typebox';
import { ASSET_PLANS } from '../domain/asset-plans';
import {
  AccountAssetUsageResult,
  AccountIdParam,
  CreateEntityBody,
  DeletedEntityResult,
  PutAssetLimitsBody,
} from './admin-assets.dto';
import {
  AssetId,
  AssetPageResult,
  AssetResult,
  AssetUsageResult,
  DeletedAssetResult,
  EntityId,
  EntityPageResult,
  EntityResult,
  SaveAssetBody,
  UpdateAssetBody,
} from './asset.dto';

const FILE = 'fil_01JDZ8Q4K3M5N7P9R1S3T5V7X9';
const ASSET = {
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
const ENTITY = {
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
const USAGE = {
  plan: 'free',
  usedBytes: 48213,
  assetCount: 1,
  limits: { bytes: ASSET_PLANS.free.bytes, count: ASSET_PLANS.free.count },
};
const ok = (data: unknown) => ({
  code: 200,
  msg: 'success',
  data,
  request_id: 'req_01JDZ9A2B4C6D8E0F2G4H6J8K1',
});

/** The success response with an example envelope. */
function answer(description: string, schema: TSchema, example: unknown): Record<string, unknown> {
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

const body = (schema: TSchema, example: unknown) => ({
  required: true,
  content: { 'application/json': { schema, example } },
});

const path = (name: string, schema: TSchema, description: string) => ({
  name,
  in: 'path',
  required: true,
  schema,
  description,
});
const query = (name: string, schema: Record<string, unknown>, description: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});

const assetIdParam = path('assetId', AssetId, 'Asset id (`ast_...`).');
const entityIdParam = path('entityId', EntityId, 'Character id (`ent_...`).');
const accountIdParam = path('accountId', AccountIdParam, 'Account id (`acc_...`).');
const paging = [
  query('limit', { type: 'string', pattern: '^(100|[1-9][0-9]?)$' }, '1 to 100, default 20.'),
  query('cursor', { type: 'string', maxLength: 2048 }, '`nextCursor` of the previous page.'),
];

const SCOPE =
  'The library is the account’s (a choice of ours; the specification scopes task history and usage to the API key, not the library): every API key of the account sees, changes and deletes the same assets, and the limits count them all. Another account’s asset is 404.';
const QUOTA = `Quotas (per account, from its plan; operators set plan and limits with \`PUT /admin/v1/accounts/{accountId}/asset-limits\` or the CLI): ${Object.entries(
  ASSET_PLANS,
)
  .map(([plan, limits]) => `\`${plan}\` ${limits.bytes} bytes and ${limits.count} assets`)
  .join(
    ', ',
  )}; an account nobody set is on \`free\`. An asset counts the bytes of its file (two assets of one file count twice). A save that would pass the count or the byte limit is **403 with business code 403** and a message naming the limit; nothing is written and usage is unchanged. Not retryable without a change: delete assets, or ask for larger limits.`;
const IDEMPOTENCY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  description:
    'Required (400 without it). Within 24 hours, per account: the same API key with the same body (defaults filled in: `{uri}` equals `{uri, favorite: false}`) gets the asset it saved, as it is now, with a fresh preview link, and saves nothing again; another body is 409; another API key of the account is 409. A key whose asset was deleted since is 404. After 24 hours the key is new again.',
};

/** The asset library routes (API key) and their administration (admin token). */
export const assetsOpenApi: OpenApiFragment = {
  paths: {
    '/api/v1/assets': {
      post: {
        tags: ['assets'],
        summary: 'Save a committed file of the account in its asset library.',
        description: `\`uri\` must be the \`service://files/fil_...\` URI of a ready (committed) file of the caller's account; anything else, including another account's file, is the same 400 and reveals nothing. The answer is the asset with a fresh preview link; \`Cache-Control: no-store\`. ${QUOTA} ${SCOPE}`,
        parameters: [IDEMPOTENCY],
        requestBody: body(SaveAssetBody, {
          uri: ASSET.uri,
          name: ASSET.name,
          favorite: true,
          collectionId: ASSET.collectionId,
        }),
        responses: {
          ...answer(
            'The saved asset (or, for a repeated Idempotency-Key, the asset it saved).',
            AssetResult,
            ASSET,
          ),
          ...errorResponses([400, 401, 403, 404, 409, 413, 429, 500]),
        },
      },
      get: {
        tags: ['assets'],
        summary: "List the account's assets: filters, order and cursor paging.",
        description: `Keyset paging like the task list: \`nextCursor\` continues after the last item of the page (absent on the last page), so assets added or removed meanwhile neither repeat nor skip others. A cursor freezes the filters and order of its first page; sending one again with another value is 400, leaving it out keeps it. Names order by their bytes (code points), the same on every database. Unknown, repeated or empty parameters are 400. ${SCOPE}`,
        parameters: [
          query(
            'favorite',
            { type: 'string', enum: ['true', 'false', '1', '0'] },
            'Only favorites, or only the others.',
          ),
          query(
            'collectionId',
            { type: 'string', pattern: '^col_[A-Za-z0-9_-]{1,64}$' },
            'Only this collection.',
          ),
          query(
            'q',
            { type: 'string', minLength: 1, maxLength: 128 },
            'Names containing this text, ignoring case.',
          ),
          query(
            'sort',
            { type: 'string', enum: ['createdAt', '-createdAt', 'name', '-name'] },
            '`createdAt`, `-createdAt` (default), `name`, `-name`; ties by assetId in the same direction.',
          ),
          ...paging,
        ],
        responses: {
          ...answer('One page of assets.', AssetPageResult, {
            items: [ASSET],
            nextCursor: 'eyJmaWx0ZXJzIjp7InNvcnQiOiItY3JlYXRlZEF0In19',
          }),
          ...errorResponses([400, 401, 403, 429, 500]),
        },
      },
    },
    '/api/v1/assets/usage': {
      get: {
        tags: ['assets'],
        summary: "The asset library's plan, usage and limits.",
        description: `Usage and limits of the account (every API key of the account sees the same). ${QUOTA}`,
        responses: {
          ...answer('Plan, usage and limits.', AssetUsageResult, USAGE),
          ...errorResponses([400, 401, 403, 429, 500]),
        },
      },
    },
    // Concrete paths before the templated one that would also match them (as the router serves them).
    '/api/v1/assets/entities': {
      get: {
        tags: ['assets'],
        summary: "List the account's characters (read only).",
        description:
          'Characters are made by operators (admin API, CLI); the API reads them. Oldest first, cursor paging; each image with a fresh preview link.',
        parameters: paging,
        responses: {
          ...answer('One page of characters.', EntityPageResult, { items: [ENTITY] }),
          ...errorResponses([400, 401, 403, 429, 500]),
        },
      },
    },
    '/api/v1/assets/entities/{entityId}': {
      parameters: [entityIdParam],
      get: {
        tags: ['assets'],
        summary: 'One character with its ordered images (read only).',
        description: "Another account's character is 404.",
        responses: {
          ...answer('The character.', EntityResult, ENTITY),
          ...errorResponses([400, 401, 403, 404, 429, 500]),
        },
      },
    },
    '/api/v1/assets/{assetId}': {
      parameters: [assetIdParam],
      get: {
        tags: ['assets'],
        summary: 'One asset with a fresh private preview link.',
        description: `The preview link is a signed GET of the file's bytes, valid 15 minutes; every read signs a new one. ${SCOPE}`,
        responses: {
          ...answer('The asset.', AssetResult, ASSET),
          ...errorResponses([400, 401, 403, 404, 429, 500]),
        },
      },
      patch: {
        tags: ['assets'],
        summary: 'Rename an asset or change its `favorite` flag.',
        description:
          'Only `name` and `favorite`; any other field (uri, collectionId, ...) is 400 naming it, and an empty body is 400.',
        requestBody: body(UpdateAssetBody, { name: 'fox, final', favorite: false }),
        responses: {
          ...answer('The changed asset.', AssetResult, { ...ASSET, name: 'fox, final', favorite: false }),
          ...errorResponses([400, 401, 403, 404, 413, 429, 500]),
        },
      },
      delete: {
        tags: ['assets'],
        summary: 'Delete an asset from the library.',
        description:
          'The library no longer holds it and its bytes no longer count toward the limits. The file it named stays a file of the account (its own retention applies), usable in task input and savable again.',
        responses: {
          ...answer('Deleted.', DeletedAssetResult, { assetId: ASSET.assetId, deleted: true }),
          ...errorResponses([400, 401, 403, 404, 429, 500]),
        },
      },
    },
    '/admin/v1/accounts/{accountId}/asset-limits': {
      parameters: [accountIdParam],
      get: {
        tags: ['admin'],
        summary: "An account's asset plan, limits and usage.",
        security: [{ adminToken: [] }],
        responses: {
          ...answer('Plan, limits and usage.', AccountAssetUsageResult, {
            accountId: 'acc_01JDZ7X1Y3Z5A7B9C1D3E5F7G9',
            ...USAGE,
          }),
          ...errorResponses([400, 401, 404, 500]),
        },
      },
      put: {
        tags: ['admin'],
        summary: "Set an account's asset plan, optionally overriding its limits.",
        description:
          "Replaces the setting: a limit left out is the plan's. Lowering a limit below the library's usage keeps its assets and refuses new ones (403).",
        security: [{ adminToken: [] }],
        requestBody: body(PutAssetLimitsBody, { plan: 'pro', count: 250000 }),
        responses: {
          ...answer('The new plan, limits and usage.', AccountAssetUsageResult, {
            accountId: 'acc_01JDZ7X1Y3Z5A7B9C1D3E5F7G9',
            plan: 'pro',
            usedBytes: 48213,
            assetCount: 1,
            limits: { bytes: ASSET_PLANS.pro.bytes, count: 250000 },
          }),
          ...errorResponses([400, 401, 404, 413, 500]),
        },
      },
    },
    '/admin/v1/accounts/{accountId}/asset-entities': {
      parameters: [accountIdParam],
      post: {
        tags: ['admin'],
        summary: 'Make a character of the account from ordered images.',
        description: `Each image must be the \`service://files/...\` URI of a ready file of that account (400 naming \`images.<n>\` otherwise). Characters do not count toward the asset limits.`,
        security: [{ adminToken: [] }],
        requestBody: body(CreateEntityBody, { name: ENTITY.name, images: [ASSET.uri] }),
        responses: {
          ...answer('The character.', EntityResult, ENTITY),
          ...errorResponses([400, 401, 404, 413, 500]),
        },
      },
      get: {
        tags: ['admin'],
        summary: "List the account's characters.",
        security: [{ adminToken: [] }],
        parameters: paging,
        responses: {
          ...answer('One page of characters.', EntityPageResult, { items: [ENTITY] }),
          ...errorResponses([400, 401, 404, 500]),
        },
      },
    },
    '/admin/v1/accounts/{accountId}/asset-entities/{entityId}': {
      parameters: [accountIdParam, entityIdParam],
      delete: {
        tags: ['admin'],
        summary: 'Delete a character of the account (its files stay).',
        security: [{ adminToken: [] }],
        responses: {
          ...answer('Deleted.', DeletedEntityResult, { entityId: ENTITY.entityId, deleted: true }),
          ...errorResponses([400, 401, 404, 500]),
        },
      },
    },
  },
};
