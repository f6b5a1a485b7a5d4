import { Type, type TSchema } from '@sinclair/typebox';
import { CONSOLE_SECURITY, envelopeResponse, errorResponses, type OpenApiFragment } from '@gen/edge';
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
import {
  ConsoleCreateKeyBody,
  ConsoleKeyIdParam,
  ConsoleKeyListResult,
  ConsoleKeyResult,
  ConsoleLinkResult,
  ConsoleUpdateKeyBody,
  SessionResult,
  SignedOutResult,
  SignInBody,
  SignInResult,
} from './console.dto';
import { SIGN_IN_POLICY } from './console-session.controller';

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

/** A `/console/v1` operation: a bearer console token or the cookie (with `X-CSRF-Token` when it changes state). */
const consoleOp = (
  summary: string,
  result: TSchema,
  options: { body?: TSchema; errors?: number[]; description?: string; security?: unknown[] } = {},
) => ({
  tags: ['console'],
  summary,
  ...(options.description ? { description: options.description } : {}),
  security: options.security ?? CONSOLE_SECURITY,
  ...(options.body ? { requestBody: json(options.body) } : {}),
  responses: {
    ...envelopeResponse(summary, result),
    ...errorResponses(options.errors ?? [400, 401, 403, 404, 413, 500]),
  },
});

const CSRF =
  'With the session cookie, send `X-CSRF-Token` (else 403, nothing changed); a bearer console token needs none.';

const SET_COOKIE = {
  schema: { type: 'string', pattern: '^console_session=' },
  description:
    '`console_session=<token>; Path=/console; Max-Age=<seconds>; HttpOnly; SameSite=Strict`, plus `Secure` when the request came over HTTPS (TLS, or `X-Forwarded-Proto: https` from a proxy listed in TRUSTED_PROXIES).',
};

/** Adds the Set-Cookie header to a 200 answer. */
function withCookie(operation: ReturnType<typeof consoleOp>): ReturnType<typeof consoleOp> {
  const responses = operation.responses as Record<string, { headers: Record<string, unknown> }>;
  const ok = responses['200']!;
  return {
    ...operation,
    responses: { ...responses, 200: { ...ok, headers: { ...ok.headers, 'Set-Cookie': SET_COOKIE } } },
  };
}

const consoleKeyId = { name: 'keyId', in: 'path', required: true, schema: ConsoleKeyIdParam };

const signIn = withCookie(
  consoleOp('Sign in to the web console with a one-time link token.', SignInResult, {
    body: SignInBody,
    security: [],
    errors: [400, 401, 413, 429, 500],
    description: `No credential. The token is the \`#token=\` fragment of the link that \`POST /admin/v1/accounts/{accountId}/console-links\` (CLI \`console-link\`) made; it works once, within ten minutes: a second use, an expired or an unknown token is 401 and creates nothing. The answer sets the session cookie (12 hours) and gives the CSRF token. ${SIGN_IN_POLICY.burst} attempts per source address, refilling ${SIGN_IN_POLICY.refillPerMinute} a minute (429).`,
  }),
);
(signIn.responses as Record<string, Record<string, unknown>>)['200']!['headers'] = {
  ...(signIn.responses as Record<string, Record<string, Record<string, unknown>>>)['200']!['headers'],
  'X-RateLimit-Limit': { schema: { type: 'string' } },
  'X-RateLimit-Remaining': { schema: { type: 'string' } },
};

const consolePaths: Record<string, Record<string, unknown>> = {
  '/console/v1/sign-in': { post: signIn },
  '/console/v1/session': {
    get: consoleOp('The signed-in account and its session.', SessionResult, {
      errors: [400, 401, 500],
      description:
        'Our addition: lets a console confirm its credential. For the cookie it also gives the CSRF token again (a reloaded page).',
    }),
  },
  '/console/v1/sign-out': {
    post: withCookie(
      consoleOp('Sign out: the session is revoked and the cookie cleared (`Max-Age=0`).', SignedOutResult, {
        errors: [401, 403, 500],
        description: CSRF,
      }),
    ),
  },
  '/console/v1/keys': {
    get: consoleOp(
      "The account's API keys (never their secrets), with today's spend against each daily cap.",
      ConsoleKeyListResult,
      { errors: [400, 401, 500] },
    ),
    post: consoleOp('Create an API key; the answer shows the whole key once.', CreatedKeyResult, {
      body: ConsoleCreateKeyBody,
      errors: [400, 401, 403, 413, 500],
      description: `Without dailyCap the key gets the low default cap. ${CSRF}`,
    }),
  },
  '/console/v1/keys/{keyId}': {
    parameters: [consoleKeyId],
    patch: consoleOp('Rename a key or set its daily cap (null clears it).', ConsoleKeyResult, {
      body: ConsoleUpdateKeyBody,
      description: `Another account's key is 404. ${CSRF}`,
    }),
  },
  '/console/v1/keys/{keyId}/revoke': {
    parameters: [consoleKeyId],
    post: consoleOp('Revoke a key; every process refuses it within one second.', RevokedKeyResult, {
      errors: [400, 401, 403, 404, 500],
      description: `Another account's key is 404. ${CSRF}`,
    }),
  },
  '/console/v1/signing-secret/rotate': {
    post: consoleOp(
      'Generate or rotate the callback signing secret; shown once, effective at once.',
      SecretResult,
      {
        errors: [401, 403, 500],
        description: CSRF,
      },
    ),
  },
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
    '/admin/v1/accounts/{accountId}/console-links': {
      parameters: [accountId],
      post: op(
        'Create a one-time sign-in link to the web console (ten minutes; only its hash is kept).',
        ConsoleLinkResult,
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
    ...consolePaths,
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
      put: op(
        "Create or change a group's price multiplier (0.01 to 100, at most 4 decimal places).",
        GroupResult,
        PutGroupBody,
      ),
    },
  },
};
