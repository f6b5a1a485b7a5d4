import { Type, type Static } from '@sinclair/typebox';
import { IdPrefix } from '@gen/contracts';
import { SUPPORTED_LANGUAGES, UsdAmount, idSchema } from '@gen/core';
import { KEY_REFERENCE_PATTERN } from '../domain/credentials';
import { MAX_MULTIPLIER, MIN_MULTIPLIER, MULTIPLIER_DECIMALS } from '../domain/price-multiplier';

const Language = Type.Union(SUPPORTED_LANGUAGES.map((l) => Type.Literal(l)));
export const GroupName = Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,31}$' });

/** Route parameters naming an account or a key: checked by their pattern before any query (else 400). */
export const AccountIdParam = idSchema(IdPrefix.account);
export const KeyReferenceParam = Type.String({
  pattern: KEY_REFERENCE_PATTERN,
  description: 'Key id (`key_` and 16 base62 characters) or the whole key; any other text is 400.',
});

export const CreateAccountBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    credit: Type.Optional(UsdAmount),
    group: Type.Optional(GroupName),
    language: Type.Optional(Language),
  },
  { additionalProperties: false },
);
export type CreateAccountBody = Static<typeof CreateAccountBody>;

export const UpdateAccountBody = Type.Object(
  { language: Type.Optional(Type.Union([Language, Type.Null()])), group: Type.Optional(GroupName) },
  { additionalProperties: false },
);
export type UpdateAccountBody = Static<typeof UpdateAccountBody>;

export const CreateKeyBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), dailyCap: Type.Optional(UsdAmount) },
  { additionalProperties: false },
);
export type CreateKeyBody = Static<typeof CreateKeyBody>;

export const UpdateKeyBody = Type.Object({ dailyCap: UsdAmount }, { additionalProperties: false });
export type UpdateKeyBody = Static<typeof UpdateKeyBody>;

export const PutGroupBody = Type.Object(
  {
    multiplier: Type.String({
      pattern: '^\\d{1,9}(\\.\\d{1,9})?$',
      maxLength: 19,
      description: `Price multiplier, an exact decimal string from ${MIN_MULTIPLIER} to ${MAX_MULTIPLIER} with at most ${MULTIPLIER_DECIMALS} decimal places (e.g. \`0.85\`, \`1.2\`). Every price of the group's accounts is the standard price times it, rounded to the nano-USD; 0, or a multiplier so small that prices round to 0, would make every request of the group fail, so it is refused (400) and nothing changes. Give free use with credit (promotional or a model grant) instead.`,
      examples: ['0.85'],
    }),
  },
  { additionalProperties: false },
);
export type PutGroupBody = Static<typeof PutGroupBody>;

export const AccountIdResult = Type.Object(
  { accountId: Type.String({ pattern: '^acc_' }) },
  { additionalProperties: false },
);
export const AccountResult = Type.Object(
  {
    accountId: Type.String({ pattern: '^acc_' }),
    name: Type.String(),
    group: Type.String(),
    language: Type.Union([Type.String(), Type.Null()]),
    hasSigningSecret: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export const CreatedKeyResult = Type.Object(
  {
    keyId: Type.String({ pattern: '^key_' }),
    apiKey: Type.String({ pattern: '^gts_' }),
    dailyCap: Type.String(),
  },
  { additionalProperties: false },
);
export const KeyResult = Type.Object(
  {
    keyId: Type.String({ pattern: '^key_' }),
    accountId: Type.String({ pattern: '^acc_' }),
    prefix: Type.String({ pattern: '^gts_', description: 'The public beginning of the key.' }),
    name: Type.String(),
    dailyCap: Type.Union([Type.String(), Type.Null()], {
      description: 'USD decimal; null: no daily cap (cleared in the console).',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the key was last used, to within a minute; null: never.',
    }),
    revoked: Type.Boolean(),
    revokedAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
export const RevokedKeyResult = Type.Object(
  { keyId: Type.String({ pattern: '^key_' }), revoked: Type.Literal(true) },
  { additionalProperties: false },
);
export const SecretResult = Type.Object(
  { secret: Type.String({ pattern: '^sk_sign_' }) },
  { additionalProperties: false },
);
export const ConsoleTokenResult = Type.Object(
  { token: Type.String({ pattern: '^gcs_' }), expiresAt: Type.String({ format: 'date-time' }) },
  { additionalProperties: false },
);
export const GroupResult = Type.Object(
  { name: Type.String(), multiplier: Type.String() },
  { additionalProperties: false },
);
