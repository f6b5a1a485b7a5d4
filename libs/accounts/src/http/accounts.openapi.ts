import { Type, type TSchema } from '@sinclair/typebox';
import { envelopeResponse, errorResponses, type OpenApiFragment } from '@gen/edge';
import {
  AccountIdParam,
  AccountIdResult,
  AccountResult,
  ConsoleTokenResult,
  CreateAccountBody,
  CreatedKeyResult,
  CreateKeyBody,
  GroupResult,
  KeyReferenceParam,
  KeyResult,
  PutGroupBody,
  RevokedKeyResult,
  SecretResult,
  UpdateAccountBody,
  UpdateKeyBody,
} from './admin.dto';

const security = [{ adminToken: [] }];
const json = (schema: TSchema) => ({ required: true, content: { 'application/json': { schema } } });
const op = (
  summary: string,
  result: TSchema,
  body?: TSchema,
  errors: number[] = [400, 401, 404, 413, 500],
) => ({
  tags: ['admin'],
  summary,
  security,
  ...(body ? { requestBody: json(body) } : {}),
  responses: { ...envelopeResponse(summary, result), ...errorResponses(errors) },
});
const accountId = { name: 'accountId', in: 'path', required: true, schema: AccountIdParam };
const keyId = {
  name: 'keyId',
  in: 'path',
  required: true,
  schema: KeyReferenceParam,
  description: 'Key id (`key_...`) or the whole key.',
};

export const accountsOpenApi: OpenApiFragment = {
  paths: {
    '/admin/v1/accounts': {
      post: op(
        'Create an account (optionally with opening wallet credit, group and API error language).',
        AccountIdResult,
        CreateAccountBody,
      ),
    },
    '/admin/v1/accounts/{accountId}': {
      parameters: [accountId],
      get: op('Read an account.', AccountResult, undefined, [400, 401, 404, 500]),
      patch: op(
        'Change the API error language (null clears it) or the group.',
        AccountIdResult,
        UpdateAccountBody,
      ),
    },
    '/admin/v1/accounts/{accountId}/keys': {
      parameters: [accountId],
      post: op(
        'Create an API key; the key is returned once, only its hash is kept.',
        CreatedKeyResult,
        CreateKeyBody,
      ),
      get: op(
        "List the account's keys (never their secrets).",
        Type.Object({ items: Type.Array(KeyResult) }),
        undefined,
        [400, 401, 404, 500],
      ),
    },
    '/admin/v1/keys/{keyId}': {
      parameters: [keyId],
      patch: op("Set a key's daily spend cap (USD).", KeyResult, UpdateKeyBody),
    },
    '/admin/v1/keys/{keyId}/revoke': {
      parameters: [keyId],
      post: op(
        'Revoke a key; every process refuses it within one second.',
        RevokedKeyResult,
        undefined,
        [400, 401, 404, 500],
      ),
    },
    '/admin/v1/accounts/{accountId}/signing-secret/rotate': {
      parameters: [accountId],
      post: op(
        'Generate or rotate the callback signing secret; shown once, effective at once.',
        SecretResult,
        undefined,
        [400, 401, 404, 500],
      ),
    },
    '/admin/v1/accounts/{accountId}/console-tokens': {
      parameters: [accountId],
      post: op(
        'Create a console session token (12 hours) for /console/v1.',
        ConsoleTokenResult,
        undefined,
        [400, 401, 404, 500],
      ),
    },
    '/console/v1/session': {
      get: {
        tags: ['console'],
        summary:
          'The account of the calling console session (our addition: lets a console confirm its credential).',
        security: [{ consoleSession: [] }],
        responses: {
          ...envelopeResponse(
            "The session's account.",
            Type.Object(
              {
                accountId: Type.String({ pattern: '^acc_' }),
                language: Type.Union([Type.String(), Type.Null()]),
              },
              { additionalProperties: false },
            ),
          ),
          ...errorResponses([400, 401, 500]),
        },
      },
    },
    '/admin/v1/groups': {
      get: op(
        'List account groups and their price multipliers.',
        Type.Object({ items: Type.Array(GroupResult) }),
        undefined,
        [400, 401, 500],
      ),
    },
    '/admin/v1/groups/{name}': {
      parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
      put: op("Create or change a group's price multiplier.", GroupResult, PutGroupBody),
    },
  },
};
