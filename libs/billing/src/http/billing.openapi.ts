import { CONSOLE_SECURITY, envelopeResponse, errorResponses, type OpenApiFragment } from '@gen/edge';
import { AccountIdParam, AddCreditBody, AddCreditResult, BalanceResult } from './billing.dto';

export const billingOpenApi: OpenApiFragment = {
  paths: {
    '/api/v1/chat/credit': {
      get: {
        tags: ['account'],
        summary: "Balance of the calling key's account: net available, held, total and funding sources.",
        description:
          'Field names are our choice (the specification does not show them). `Cache-Control: no-store`. It takes no query parameters: any is 400.',
        responses: {
          ...envelopeResponse('Balance.', BalanceResult, { rateLimited: true }),
          ...errorResponses([400, 401, 403, 429, 500]),
        },
      },
    },
    '/console/v1/balance': {
      get: {
        tags: ['console'],
        summary:
          "The signed-in account's balance: net available, held, total and funding sources (wallet, promotional credit, model-scoped grants with their expiry).",
        description:
          'The shape of `GET /api/v1/chat/credit`. Amounts are exact USD decimal strings. `Cache-Control: no-store`.',
        security: CONSOLE_SECURITY,
        responses: {
          ...envelopeResponse('Balance.', BalanceResult),
          ...errorResponses([400, 401, 500]),
        },
      },
    },
    '/admin/v1/accounts/{accountId}/credits': {
      parameters: [{ name: 'accountId', in: 'path', required: true, schema: AccountIdParam }],
      post: {
        tags: ['admin'],
        summary: 'Add wallet funds, promotional credit, or a model-scoped grant.',
        security: [{ adminToken: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: AddCreditBody } } },
        responses: {
          ...envelopeResponse('Credit added.', AddCreditResult),
          ...errorResponses([400, 401, 404, 413, 500]),
        },
      },
    },
  },
};
