import { Type, type Static } from '@sinclair/typebox';
import { IdPrefix } from '@gen/contracts';
import { UsdAmount, UsdDecimal as Usd, idSchema } from '@gen/core';

/** The `accountId` route parameter: checked by its pattern before any query. */
export const AccountIdParam = idSchema(IdPrefix.account);

export const BalanceResult = Type.Object(
  {
    currency: Type.Literal('USD'),
    available: Usd,
    held: Usd,
    total: Usd,
    sources: Type.Object(
      {
        wallet: Usd,
        credit: Type.String({
          description: 'Unused promotional or approved credit, kept apart from wallet funds.',
        }),
        grants: Type.Array(
          Type.Object(
            {
              id: Type.String(),
              model: Type.String(),
              available: Usd,
              expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const AddCreditBody = Type.Object(
  {
    amount: UsdAmount,
    kind: Type.Optional(
      Type.Union([Type.Literal('wallet'), Type.Literal('promo'), Type.Literal('grant')], {
        default: 'wallet',
      }),
    ),
    model: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Required for grants: the model the grant pays for, an exact catalog id or alias (kept as the exact id). A model the catalog does not know is 400 naming this field; nothing is added.',
      }),
    ),
    expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
export type AddCreditBody = Static<typeof AddCreditBody>;

export const AddCreditResult = Type.Object(
  { accountId: Type.String({ pattern: '^acc_' }), balance: Usd },
  { additionalProperties: false, description: '`balance` is the net available balance after the credit.' },
);
