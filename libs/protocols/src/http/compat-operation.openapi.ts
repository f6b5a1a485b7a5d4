import { BusinessCode } from '@gen/contracts';
import type { TSchema } from '@sinclair/typebox';
import {
  COMMON_EXAMPLES,
  compatErrorResponses,
  edgeRefusal,
  ERROR_SCHEMA,
  refused,
  type ErrorExample,
  type ErrorFamily,
} from './compat-errors.openapi';
import { FIELD_RULES } from './compat-requests.openapi';

/**
 * What the operations of the compatibility family share: the key schemes, the response headers, the
 * Idempotency-Key, and the shape of a text operation (its 200 as JSON or stream, its errors with examples).
 */

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const string = (extra: Record<string, unknown> = {}) => ({ type: 'string', ...extra });

/** Every way a compatibility request may carry the key; any one suffices. */
export const SECURITY = [{ apiKey: [] }, { xApiKey: [] }, { xGenApiKey: [] }, { xGoogApiKey: [] }];

export const securitySchemes = {
  xApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'The API key, compatibility endpoints only (`/v1`, `/v1beta`). Never in a query string.',
  },
  xGenApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-gen-api-key',
    description: 'The API key, compatibility endpoints only. Never in a query string.',
  },
  xGoogApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-goog-api-key',
    description:
      'The API key, compatibility endpoints only. A key in the URL (`?key=`, as Google’s API allows) is ' +
      'refused with 401, even beside a valid header.',
  },
};

export const REQUEST_ID = {
  'X-Request-Id': { schema: string({ pattern: '^req_' }), description: 'The request id (`req_...`).' },
};
export const RATE = {
  'X-RateLimit-Limit': { schema: string() },
  'X-RateLimit-Remaining': { schema: string() },
};
export const TASK_ID = {
  'X-Service-Task-Id': {
    schema: string({ pattern: '^job_' }),
    description:
      'The task of this request (streamed or not). Its cost is read from recordInfo (`cost` final once `settled`).',
  },
};
const optional = (description: string, schema = string()) => ({ required: false, schema, description });

export const TEXT_HEADERS = {
  ...REQUEST_ID,
  ...TASK_ID,
  'X-Service-Ignored-Params': optional('Fields ignored by the field rules, comma separated (only when any).'),
  'X-Service-Adjusted-Params': optional(
    'Each adjusted field as `name=value`, comma separated (only when any).',
  ),
  ...RATE,
};
export const KEEPALIVE = {
  'X-Service-Keepalive': optional(
    'A non-streamed answer still running after about 30 seconds: `1`, and the body is preceded by ' +
      'whitespace; a failure after that point is an error object inside this 200 body.',
    string({ const: '1' }),
  ),
};

export const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: string({ minLength: 1, maxLength: 255 }),
  description:
    'Prevents a second charge: used again, it answers 409 (with the same request, X-Service-Task-Id names the ' +
    'task). It cannot return a lost response.',
};

const STREAMING =
  'Streams (`text/event-stream`) carry `: keep-alive` comment lines while the model thinks; parsers skip them. ' +
  'Everything refused before the stream starts is a normal JSON error response, holding nothing; so is a model ' +
  'failure before its first event, unless the model was silent long enough for the stream to open with a ' +
  'keep-alive. A client disconnect only stops reception: the task finishes and is settled by the work performed.';

export const NOT_FOUND_LIST =
  'Other OpenAI-style paths (`/v1/embeddings`, `/v1/completions`, `/v1/images/*`, `/v1/audio/*`, ' +
  '`/v1/moderations`, `/v1/files`, `/v1/batches`, `/v1/assistants`, fine-tuning) do not exist: 404 in the ' +
  'OpenAI error shape (`/v1/messages/*` in the Anthropic one, `/v1beta/*` in the Google one).';

/** The 200 of a text endpoint: the whole answer (or the error that ended a held-open one), or the stream. */
export function textAnswer(
  family: ErrorFamily,
  whole: string,
  wholeSchema: string,
  stream: string,
  streamType = 'text/event-stream',
  streamSchema: unknown = string(),
): Record<string, unknown> {
  return {
    '200': {
      description: 'The answer.',
      headers: { ...TEXT_HEADERS, ...KEEPALIVE },
      content: {
        'application/json': {
          schema: { anyOf: [ref(wholeSchema), ref(ERROR_SCHEMA[family])], description: whole },
        },
        [streamType]: { schema: streamSchema, description: stream },
      },
    },
  };
}

const TEXT_STATUSES = [400, 401, 402, 404, 409, 413, 429, 500, 503] as const;

/** The error responses of a text endpoint: the common examples, with the protocol's own first. */
export function textErrors(family: ErrorFamily, own: Readonly<Record<number, readonly ErrorExample[]>>) {
  const modelNotFound = refused(
    'Unknown model (the closest chat model named)',
    404,
    'model_not_found',
    'compat.model_not_found',
    { model: 'gpt-4o', closest: 'local/echo/chat' },
    'model',
  );
  const notChat = refused(
    'Not a chat model',
    400,
    'invalid_request',
    'compat.not_chat_model',
    { model: 'local/sketch' },
    'model',
  );
  const upstream = refused(
    'The model failed before answering',
    503,
    'upstream_failed',
    'task.error.upstream_failed',
  );
  const rejected = refused('Content-policy refusal', 400, 'content_rejected', 'task.error.content_rejected');
  const replayed = edgeRefusal('Idempotency-Key already used', BusinessCode.Conflict, 'stream.replayed', {
    taskId: 'job_01JZ0000000000000000000000',
  });
  const examples: Record<number, readonly ErrorExample[]> = {};
  for (const status of TEXT_STATUSES) {
    const extra =
      status === 400
        ? [notChat, rejected]
        : status === 404
          ? [modelNotFound]
          : status === 503
            ? [upstream]
            : status === 409
              ? [replayed]
              : [];
    examples[status] = [...(own[status] ?? []), ...extra, ...(COMMON_EXAMPLES[status] ?? [])];
  }
  return compatErrorResponses(family, examples);
}

export const unsupported = (
  param: string,
  messageId:
    | 'compat.unsupported_parameter'
    | 'generate_content.unsupported_parameter' = 'compat.unsupported_parameter',
) => refused(`Unsupported field \`${param}\``, 400, 'unsupported_parameter', messageId, { param }, param);

export function textOperation(options: {
  summary: string;
  description: string;
  body: TSchema;
  responses: Record<string, unknown>;
  parameters?: unknown[];
}) {
  return {
    post: {
      tags: ['compatibility'],
      summary: options.summary,
      description: `${options.description}\n\n${FIELD_RULES}\n\n${STREAMING}`,
      security: SECURITY,
      parameters: [...(options.parameters ?? []), IDEMPOTENCY_KEY],
      requestBody: { required: true, content: { 'application/json': { schema: options.body } } },
      responses: options.responses,
    },
  };
}
