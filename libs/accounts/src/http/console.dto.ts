import { Type, type Static } from '@sinclair/typebox';
import { CONSOLE_LINK_PREFIX, IdPrefix } from '@gen/contracts';
import { UsdAmount } from '@gen/core';

/** The web console's requests and answers under `/console/v1` (accounts). */

export const SignInBody = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 200,
      description: `The sign-in link's token (\`${CONSOLE_LINK_PREFIX}...\`, from the link's fragment \`#token=\`).`,
    }),
  },
  { additionalProperties: false },
);
export type SignInBody = Static<typeof SignInBody>;

const Language = Type.Union([Type.String(), Type.Null()], {
  description: "The account's API error language setting, or null.",
});

export const SignInResult = Type.Object(
  {
    accountId: Type.String({ pattern: '^acc_' }),
    language: Language,
    expiresAt: Type.String({ format: 'date-time', description: 'When the session ends (12 hours).' }),
    csrfToken: Type.String({
      minLength: 43,
      description: 'Send it as `X-CSRF-Token` on every POST, PUT, PATCH and DELETE made with the cookie.',
    }),
  },
  { additionalProperties: false },
);

export const SessionResult = Type.Object(
  {
    accountId: Type.String({ pattern: '^acc_' }),
    language: Language,
    expiresAt: Type.String({ format: 'date-time' }),
    csrfToken: Type.Optional(
      Type.String({
        description: 'Cookie sessions only: the same token sign-in gave (for a reloaded page).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SignedOutResult = Type.Object(
  { signedOut: Type.Literal(true) },
  { additionalProperties: false },
);

export const ConsoleLinkResult = Type.Object(
  {
    url: Type.String({
      description: '`<base>/console/sign-in#token=<token>`: usable once, within ten minutes.',
    }),
    expiresAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const ConsoleKeyIdParam = Type.String({
  pattern: `^${IdPrefix.apiKey}_[0-9A-Za-z]{16}$`,
  description: 'Key id (`key_` and 16 base62 characters); any other text is 400.',
});

export const ConsoleCreateKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    dailyCap: Type.Optional(UsdAmount),
  },
  { additionalProperties: false },
);
export type ConsoleCreateKeyBody = Static<typeof ConsoleCreateKeyBody>;

export const ConsoleUpdateKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    dailyCap: Type.Optional(
      Type.Union([UsdAmount, Type.Null()], {
        description: 'USD decimal; null clears the cap (no daily limit).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ConsoleUpdateKeyBody = Static<typeof ConsoleUpdateKeyBody>;

const KeyFields = {
  keyId: Type.String({ pattern: '^key_' }),
  prefix: Type.String({ pattern: '^gts_', description: 'The public beginning of the key.' }),
  name: Type.String(),
  dailyCap: Type.Union([Type.String(), Type.Null()], { description: 'USD decimal; null: no daily cap.' }),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the key was last used, to within a minute; null: never.',
  }),
  revoked: Type.Boolean(),
  revokedAt: Type.Optional(Type.String({ format: 'date-time' })),
};

export const ConsoleKeyResult = Type.Object(
  { ...KeyFields, accountId: Type.String({ pattern: '^acc_' }) },
  { additionalProperties: false },
);

export const ConsoleKeyListResult = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          ...KeyFields,
          accountId: Type.String({ pattern: '^acc_' }),
          spentToday: Type.String({
            description:
              "Spent against the daily cap in the current UTC day: outstanding holds and settled charges of the day's holds, USD.",
          }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
