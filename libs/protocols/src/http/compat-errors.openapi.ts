import {
  ANTHROPIC_ERROR_TYPES,
  BusinessCode,
  describeErrorTable,
  GOOGLE_ERROR_STATUSES,
  OPENAI_ERROR_CODES,
  OPENAI_ERROR_TYPES,
} from '@gen/contracts';
import { DomainError, translate, type MessageId, type MessageParams } from '@gen/core';
import { renderError } from '@gen/edge';
import { Type } from '@sinclair/typebox';
import { writeChatCompletionsError } from '../chat-completions';
import { ProtocolError } from '../canonical/text-input';
import { writeGenerateContentError } from '../generate-content';
import { writeMessagesError } from '../messages';

/**
 * The error responses of the compatibility endpoints, each in its protocol's own shape, with examples made by
 * the code that writes them: the protocol's error writer for what the protocol layer refuses, the edge's
 * `renderError` for what the edge refuses (key, balance, rate, body size, ...), so an example cannot drift from
 * what a client receives.
 */

/** `{error: {message, type, param, code}}`: chat completions, responses and videos. */
export const OpenAiError = Type.Object(
  {
    error: Type.Object(
      {
        message: Type.String({ description: 'In the negotiated language (Content-Language).' }),
        type: Type.String({
          description: `By status, from the edge and the protocol layer alike: ${describeErrorTable(OPENAI_ERROR_TYPES)}; any other 4xx invalid_request_error, 5xx server_error.`,
        }),
        param: Type.Union([Type.String(), Type.Null()], {
          description: 'The field at fault as a dot path (`messages.1.content.0`), else null.',
        }),
        code: Type.String({
          description: `What failed: \`unsupported_parameter\`, \`invalid_request\`, \`content_rejected\`, \`model_not_found\`, \`upstream_failed\` from the protocol layer; otherwise by status: ${describeErrorTable(OPENAI_ERROR_CODES)}.`,
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** `{type: "error", error: {type, message}}`: messages. */
export const AnthropicError = Type.Object(
  {
    type: Type.Literal('error'),
    error: Type.Object(
      {
        type: Type.String({
          description: `By status: ${describeErrorTable(ANTHROPIC_ERROR_TYPES)}; any other 4xx invalid_request_error, 5xx api_error.`,
        }),
        message: Type.String(),
      },
      { additionalProperties: false },
    ),
    request_id: Type.Optional(
      Type.String({ pattern: '^req_', description: 'Present when the edge refused the request.' }),
    ),
  },
  { additionalProperties: false },
);

/** `{error: {code, message, status}}`: generate content. */
export const GoogleError = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.Integer({ description: 'The HTTP status.' }),
        message: Type.String(),
        status: Type.String({
          description: `By status: ${describeErrorTable(GOOGLE_ERROR_STATUSES)}; any other 4xx INVALID_ARGUMENT, 5xx INTERNAL.`,
        }),
        details: Type.Optional(
          Type.Array(
            Type.Object(
              {
                '@type': Type.Literal('type.googleapis.com/google.rpc.BadRequest'),
                fieldViolations: Type.Array(
                  Type.Object(
                    { field: Type.String(), description: Type.String() },
                    { additionalProperties: false },
                  ),
                ),
              },
              { additionalProperties: false },
            ),
            { description: 'When one field is at fault: its dot path, as Google names a field.' },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export type ErrorFamily = 'openai' | 'anthropic' | 'google';

/** The component name of each family's error schema. */
export const ERROR_SCHEMA: Readonly<Record<ErrorFamily, string>> = {
  openai: 'CompatOpenAiError',
  anthropic: 'CompatAnthropicError',
  google: 'CompatGoogleError',
};

/** A URL of each family, for the edge's renderer (it picks the shape by path). */
const FAMILY_URL: Readonly<Record<ErrorFamily, string>> = {
  openai: '/v1/chat/completions',
  anthropic: '/v1/messages',
  google: '/v1beta/models/m:generateContent',
};

const EXAMPLE_REQUEST_ID = 'req_01JZ0000000000000000000000';
const EXAMPLE_BODY_LIMIT = 1_048_576;

/** What the edge answers for `error` on a path of `family`. */
function edgeExample(family: ErrorFamily, error: DomainError): unknown {
  const rendered = renderError(
    error,
    { id: EXAMPLE_REQUEST_ID, url: FAMILY_URL[family], headers: {} } as Parameters<typeof renderError>[1],
    EXAMPLE_BODY_LIMIT,
  );
  return JSON.parse(rendered.body) as unknown;
}

/** What the protocol layer answers for `error` in `family`'s shape. */
function protocolExample(family: ErrorFamily, error: ProtocolError): unknown {
  const message = translate('en', error.messageId as MessageId, error.params);
  switch (family) {
    case 'openai':
      return writeChatCompletionsError(error, message);
    case 'anthropic':
      return writeMessagesError(error, message);
    case 'google':
      return writeGenerateContentError(error, message);
  }
}

/** One example: refused by the edge (a DomainError) or by the protocol layer (a ProtocolError). */
export type ErrorExample = { summary: string } & ({ edge: DomainError } | { protocol: ProtocolError });

/** A refusal of the edge, for a route's examples. */
export const edgeRefusal = (
  summary: string,
  code: BusinessCode,
  messageId: MessageId,
  params: MessageParams = {},
): ErrorExample => ({ summary, edge: new DomainError(code, messageId, params) });

/** The examples every compatibility route shares, by status; routes add or replace their own. */
export const COMMON_EXAMPLES: Readonly<Record<number, readonly ErrorExample[]>> = {
  400: [edgeRefusal('Malformed JSON body', BusinessCode.InvalidRequest, 'request.invalid_json')],
  401: [
    edgeRefusal('Unknown or revoked key', BusinessCode.Unauthorized, 'auth.invalid_key'),
    edgeRefusal('A key in the query string (`?key=`)', BusinessCode.Unauthorized, 'auth.key_in_query'),
  ],
  402: [
    edgeRefusal('Balance too low for the hold', BusinessCode.InsufficientBalance, 'balance.insufficient'),
    edgeRefusal('Daily spend cap of the key reached', BusinessCode.SpendCapReached, 'spend_cap.reached'),
  ],
  404: [edgeRefusal('Unknown path', BusinessCode.NotFound, 'request.not_found')],
  409: [
    edgeRefusal('Idempotency-Key used with another request', BusinessCode.Conflict, 'idempotency.conflict'),
    edgeRefusal('Idempotency-Key of another API key', BusinessCode.Conflict, 'idempotency.other_api_key'),
  ],
  413: [
    edgeRefusal('Body above the limit', BusinessCode.PayloadTooLarge, 'request.body_too_large', {
      limit: EXAMPLE_BODY_LIMIT,
    }),
  ],
  429: [edgeRefusal('Per-key rate limit', BusinessCode.RateLimited, 'rate.limited', { seconds: 2 })],
  500: [edgeRefusal('Unexpected failure (fixed body)', BusinessCode.ServerError, 'server.error')],
  503: [
    edgeRefusal('Model not available', BusinessCode.Unavailable, 'model.unavailable', {
      model: 'vendor/model',
    }),
    edgeRefusal('Shutting down', BusinessCode.Unavailable, 'server.draining'),
  ],
};

const DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'Invalid request: malformed JSON or URL, a missing or malformed field (`invalid_request`), a field the protocol or the model does not accept (`unsupported_parameter`, `param` names it), a value the model’s inputSchema refuses, a model of another kind, or a content-policy refusal of the model (`content_rejected`).',
  401: 'Missing or invalid API key, an authorization scheme other than Bearer, or a key in the URL query (`?key=` and the like: refused even with a valid header).',
  402: 'The balance or the key’s daily spend cap does not cover the hold (the messages plus the full `max_tokens`). Nothing is held.',
  404: 'Not found.',
  409: 'The Idempotency-Key was already used (with another request, or by another key of the account); on a text endpoint also with the same request: the answer is not sent again and nothing is charged twice.',
  413: 'Body too large.',
  429: 'Rate limited; Retry-After is present.',
  500: 'Server error; the body never carries internals.',
  503: 'Unavailable: the model is not available (Retry-After when temporary), the model failed before answering (`upstream_failed`, the hold released), or the service is shutting down.',
};

const textHeader = (description: string) => ({ schema: { type: 'string' }, description });

/** The error responses of one route, in `family`'s shape, with the given examples per status. */
export function compatErrorResponses(
  family: ErrorFamily,
  examples: Readonly<Record<number, readonly ErrorExample[]>>,
  descriptions: Readonly<Record<number, string>> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, list] of Object.entries(examples)) {
    const code = Number(status);
    out[status] = {
      description: descriptions[code] ?? DESCRIPTIONS[code] ?? 'Error.',
      headers: {
        'X-Request-Id': { schema: { type: 'string', pattern: '^req_' } },
        'Content-Language': textHeader('The language of the message.'),
        ...(code === 429 ? { 'Retry-After': textHeader('Seconds to wait.') } : {}),
        ...(code === 503
          ? {
              'Retry-After': {
                ...textHeader('Seconds to wait, when the outage is temporary.'),
                required: false,
              },
            }
          : {}),
      },
      content: {
        'application/json': {
          schema: { $ref: `#/components/schemas/${ERROR_SCHEMA[family]}` },
          examples: Object.fromEntries(
            list.map((example, index) => [
              `e${index + 1}`,
              {
                summary: example.summary,
                value:
                  'edge' in example
                    ? edgeExample(family, example.edge)
                    : protocolExample(family, example.protocol),
              },
            ]),
          ),
        },
      },
    };
  }
  return out;
}

/** A refusal of the protocol layer, for a route's examples. */
export const refused = (
  summary: string,
  status: number,
  code: string,
  messageId: MessageId,
  params: Readonly<Record<string, string | number>> = {},
  param: string | null = null,
): ErrorExample => ({ summary, protocol: new ProtocolError(status, code, messageId, params, param) });

/** The error schemas, for `components.schemas`. */
export const compatErrorSchemas = {
  [ERROR_SCHEMA.openai]: OpenAiError,
  [ERROR_SCHEMA.anthropic]: AnthropicError,
  [ERROR_SCHEMA.google]: GoogleError,
};
