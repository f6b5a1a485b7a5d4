import { Type, type Static } from '@sinclair/typebox';
import { IdPrefix } from '@gen/contracts';
import { idSchema } from '@gen/core';
import { MAX_ASSET_NAME_LENGTH } from '../domain/asset-list-cursor';
import { ASSET_PLANS, ASSET_PLAN_NAMES } from '../domain/asset-plans';
import { AssetUsageResult, ServiceFileUri } from './asset.dto';

export const AccountIdParam = idSchema(IdPrefix.account);

export const MAX_ENTITY_IMAGES = 20;

const planDefaults = ASSET_PLAN_NAMES.map(
  (plan) => `${plan}: ${ASSET_PLANS[plan].bytes} bytes, ${ASSET_PLANS[plan].count} assets`,
).join('; ');

export const PutAssetLimitsBody = Type.Object(
  {
    plan: Type.Union(
      ASSET_PLAN_NAMES.map((p) => Type.Literal(p)),
      { description: `The plan; its default limits: ${planDefaults}.` },
    ),
    bytes: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description: "Overrides the plan's byte limit; left out, the plan's.",
      }),
    ),
    count: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2_147_483_647,
        description: "Overrides the plan's asset count limit; left out, the plan's.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type PutAssetLimitsBody = Static<typeof PutAssetLimitsBody>;

export const AccountAssetUsageResult = Type.Object(
  { accountId: Type.String({ pattern: '^acc_' }), ...AssetUsageResult.properties },
  { additionalProperties: false },
);

export const CreateEntityBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_ASSET_NAME_LENGTH }),
    images: Type.Array(ServiceFileUri, {
      minItems: 1,
      maxItems: MAX_ENTITY_IMAGES,
      description: 'Ready files of the account, in the character’s order.',
    }),
  },
  { additionalProperties: false },
);
export type CreateEntityBody = Static<typeof CreateEntityBody>;

export const DeletedEntityResult = Type.Object(
  { entityId: Type.String({ pattern: '^ent_' }), deleted: Type.Literal(true) },
  { additionalProperties: false },
);
