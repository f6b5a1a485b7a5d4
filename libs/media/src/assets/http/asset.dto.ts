import { Type, type Static } from '@sinclair/typebox';
import { IdPrefix, SERVICE_FILE_URI } from '@gen/contracts';
import { idSchema } from '@gen/core';
import { QueryBoolean } from '@gen/edge';
import {
  ASSET_SORTS,
  COLLECTION_ID_PATTERN,
  MAX_ASSET_NAME_LENGTH,
  MAX_ASSET_QUERY_LENGTH,
} from '../domain/asset-list-cursor';
import { ASSET_PLAN_NAMES } from '../domain/asset-plans';

/** Ids taken from a request: checked by their pattern before any query (else 400 naming them). */
export const AssetId = idSchema(IdPrefix.asset);
export const EntityId = idSchema(IdPrefix.assetEntity);

export const ServiceFileUri = Type.String({
  pattern: SERVICE_FILE_URI.source,
  description: 'A `service://files/fil_...` URI, as the commit of an upload returns it.',
});
const AssetName = Type.String({ minLength: 1, maxLength: MAX_ASSET_NAME_LENGTH });
const CollectionId = Type.String({
  pattern: COLLECTION_ID_PATTERN,
  description:
    'A collection the client names: `col_` and 1 to 64 letters, digits, `_` or `-`. Collections have no resource of their own: assets with the same collectionId form one, for the `collectionId` filter.',
});

export const SaveAssetBody = Type.Object(
  {
    uri: ServiceFileUri,
    name: Type.Optional({ ...AssetName, description: "Default: the file's name, else its id." }),
    favorite: Type.Optional(Type.Boolean({ description: 'Default false.' })),
    collectionId: Type.Optional(CollectionId),
  },
  { additionalProperties: false },
);
export type SaveAssetBody = Static<typeof SaveAssetBody>;

export const UpdateAssetBody = Type.Object(
  { name: Type.Optional(AssetName), favorite: Type.Optional(Type.Boolean()) },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'Only `name` and `favorite` change; any other field is 400.',
  },
);
export type UpdateAssetBody = Static<typeof UpdateAssetBody>;

const Limit = Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: '1 to 100, default 20.' });
const Cursor = Type.String({
  maxLength: 2048,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'nextCursor of the previous page; it freezes the filters and the order.',
});

export const ListAssetsQuery = Type.Object(
  {
    favorite: Type.Optional({ ...QueryBoolean, description: 'Only favorites (true) or only the others.' }),
    collectionId: Type.Optional(CollectionId),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_ASSET_QUERY_LENGTH,
        description: 'Names containing this text, ignoring case.',
      }),
    ),
    sort: Type.Optional(
      Type.Union(
        ASSET_SORTS.map((s) => Type.Literal(s)),
        {
          description:
            'Order; `-` for descending; ties by assetId in the same direction. Default -createdAt.',
        },
      ),
    ),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);
export type ListAssetsQuery = Static<typeof ListAssetsQuery>;

export const ListEntitiesQuery = Type.Object(
  { limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) },
  { additionalProperties: false },
);
export type ListEntitiesQuery = Static<typeof ListEntitiesQuery>;

const Timestamp = (description: string) => Type.String({ format: 'date-time', description });
const PreviewUrl = Type.String({
  description:
    'A fresh private link to the bytes (signed GET, no API key needed), valid 15 minutes; each read signs a new one.',
});

export const AssetResult = Type.Object(
  {
    assetId: Type.String({ pattern: '^ast_' }),
    name: Type.String(),
    favorite: Type.Boolean(),
    collectionId: Type.Union([Type.String({ pattern: '^col_' }), Type.Null()]),
    uri: Type.String({ pattern: '^service://files/fil_' }),
    contentType: Type.String(),
    bytes: Type.Integer({ minimum: 0 }),
    createdAt: Timestamp('When it was saved.'),
    updatedAt: Timestamp('Last rename or favorite change.'),
    previewUrl: PreviewUrl,
    previewExpiresAt: Timestamp('When previewUrl stops working.'),
  },
  { additionalProperties: false },
);

export const AssetPageResult = Type.Object(
  {
    items: Type.Array(AssetResult),
    nextCursor: Type.Optional(Type.String({ description: 'Absent on the last page.' })),
  },
  { additionalProperties: false },
);

export const DeletedAssetResult = Type.Object(
  { assetId: Type.String({ pattern: '^ast_' }), deleted: Type.Literal(true) },
  { additionalProperties: false },
);

const Limits = Type.Object(
  {
    bytes: Type.Integer({ minimum: 0, description: 'Most bytes the library may hold.' }),
    count: Type.Integer({ minimum: 0, description: 'Most assets the library may hold.' }),
  },
  { additionalProperties: false },
);

export const AssetUsageResult = Type.Object(
  {
    plan: Type.Union(ASSET_PLAN_NAMES.map((p) => Type.Literal(p))),
    usedBytes: Type.Integer({
      minimum: 0,
      description: 'Sum of the bytes of the assets (each counts its file).',
    }),
    assetCount: Type.Integer({ minimum: 0 }),
    limits: Limits,
  },
  { additionalProperties: false },
);

export const EntityResult = Type.Object(
  {
    entityId: Type.String({ pattern: '^ent_' }),
    name: Type.String(),
    images: Type.Array(
      Type.Object(
        {
          uri: Type.String({ pattern: '^service://files/fil_' }),
          contentType: Type.String(),
          previewUrl: PreviewUrl,
          previewExpiresAt: Timestamp('When previewUrl stops working.'),
        },
        { additionalProperties: false },
      ),
      { description: 'In the character’s order.' },
    ),
    createdAt: Timestamp('When an operator made it.'),
  },
  { additionalProperties: false },
);

export const EntityPageResult = Type.Object(
  {
    items: Type.Array(EntityResult),
    nextCursor: Type.Optional(Type.String({ description: 'Absent on the last page.' })),
  },
  { additionalProperties: false },
);
