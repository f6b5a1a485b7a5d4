import { CONSOLE_SECURITY, envelopeResponse, errorResponses, type OpenApiFragment } from '@gen/edge';
import {
  ConsoleTaskPage,
  CreateTaskResult,
  PurgeResult,
  QuoteResult,
  RetryResult,
  TaskId,
  TaskIdInput,
  TaskIdBody,
  TaskPage,
  TaskRecord,
  TaskRequestBody,
  UsageResult,
} from './task.dto';
import { downloadUrlPaths } from './download-url.openapi';

const dateParams = [
  {
    name: 'from',
    in: 'query',
    required: false,
    schema: { type: 'string', format: 'date' },
    description: 'Inclusive UTC date (YYYY-MM-DD); default seven days before `to`.',
  },
  {
    name: 'to',
    in: 'query',
    required: false,
    schema: { type: 'string', format: 'date' },
    description: 'Exclusive UTC date; default tomorrow. At most 92 days after `from`.',
  },
];

/** The task list's query parameters (native and console). */
const listParams = [
  ...dateParams,
  {
    name: 'state',
    in: 'query',
    required: false,
    schema: {
      type: 'string',
      enum: ['queued', 'running', 'succeeded', 'failed', 'canceled', 'expired'],
    },
  },
  {
    name: 'model',
    in: 'query',
    required: false,
    schema: { type: 'string' },
    description: 'Exact catalog id or a declared alias.',
  },
  {
    name: 'limit',
    in: 'query',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
  {
    name: 'cursor',
    in: 'query',
    required: false,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+$', maxLength: 2048 },
    description: 'Opaque nextCursor of the previous page.',
  },
];

/** Task requests as clients send them: plain text, and a media field filled with an uploaded file or a URL. */
const taskRequestExamples = {
  textToImage: {
    summary: 'Text to image',
    value: {
      model: 'local/sketch',
      input: { prompt: 'a lighthouse at dusk, pencil sketch', width: 768, height: 512 },
    },
  },
  imageToImageFromFile: {
    summary: 'Image to image from an uploaded file (the uri a commit answered)',
    value: {
      model: 'local/sketch',
      input: { prompt: 'the same, in winter', image: 'service://files/fil_01JD8ZK3W4C6T2M7Q9R5X1Y0AB' },
    },
  },
  imageToImageFromUrl: {
    summary: 'Image to image from a public https URL (fetched by the runner through the SSRF guard)',
    value: {
      model: 'local/sketch',
      input: { prompt: 'the same, in winter', image: 'https://images.example.com/lighthouse.png' },
    },
  },
};

const taskRequest = {
  required: true,
  content: { 'application/json': { schema: TaskRequestBody, examples: taskRequestExamples } },
};
const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  description:
    'Same account and API key, same normalized model, input and callback URL within 24 hours: the original task in its current state, no second hold. Another API key of the account: 409 without the task id. Other semantics: 409.',
};

export const tasksOpenApi: OpenApiFragment = {
  paths: {
    '/api/v1/jobs/quote': {
      post: {
        tags: ['tasks'],
        summary: 'Quote a task request: validated like createTask; creates nothing and holds nothing.',
        description:
          'Field names of the quote are our choice. The quote is signed, bound to the account, the API key and the normalized request (model, input, callback URL), and valid five minutes. Funds and the daily spend cap are checked as at acceptance (402). `Cache-Control: no-store`.',
        requestBody: taskRequest,
        responses: {
          ...envelopeResponse('The quote.', QuoteResult, { rateLimited: true }),
          ...errorResponses([400, 401, 402, 403, 404, 409, 413, 429, 500, 503]),
        },
      },
    },
    '/api/v1/jobs/stream': {
      post: {
        tags: ['tasks'],
        summary: 'Run a text task and stream its answer as Server-Sent Events.',
        description:
          'Text models only (another model: 503, business code 503). The same validation, quote, Idempotency-Key and hold as createTask; everything refused before the stream starts is a normal JSON error in the envelope, holding nothing, and so is a failure of the model before its first event (400 for a content refusal, 503 with 50301 otherwise; the hold is released) unless the model was silent past TEXT_STREAM_KEEPALIVE_MS (default 10 s): then the stream has already opened with a `: keep-alive` comment and the failure is an `event: error` in it. Then `text/event-stream`: one JSON chunk per `data:` line, each a canonical event (a choice of ours): `{"type":"text","delta"}`, `{"type":"reasoning","delta"}`, `{"type":"tool_call","index","id"?,"name"?,"argumentsDelta"}` (join the deltas of one index), `{"type":"usage","inputTokens","cachedInputTokens","outputTokens","reasoningTokens"}`, `{"type":"finish","reason"}`; the stream ends with `data: [DONE]`. `: keep-alive` comment lines come while the model thinks (after each TEXT_STREAM_KEEPALIVE_MS of silence, before the first event as between events). A failure after the first event ends the stream with `event: error` and `data: {"taskId","errorCode","msg"}`; the hold is released and a truncated answer is never charged. The task id is in `X-Service-Task-Id`; its cost is read with recordInfo once settled. A client that disconnects only stops reception: the task finishes and is settled by the work performed. When the service stops (SIGTERM), an open answer runs on to its end and is settled by its usage; one still running near the end of the shutdown grace is cut: with something delivered it ends as a complete stream does (a `usage` then a `finish` with reason `length`) and is charged by what it delivered, with nothing delivered it fails with `service_interrupted` (a 503 with 50301 before the stream opened), uncharged. When the process serving it dies, the task fails with `service_interrupted` within TEXT_STREAM_LEASE_MS (default 10 s), uncharged. An Idempotency-Key used again answers 409 (`X-Service-Task-Id` names the task): the stream is not sent twice and nothing is charged twice; after a `service_interrupted` failure the key may be used again.',
        parameters: [idempotencyKey],
        requestBody: taskRequest,
        responses: {
          '200': {
            description: 'The answer as Server-Sent Events.',
            headers: {
              'X-Service-Task-Id': { schema: { type: 'string', pattern: '^job_' } },
              'X-Request-Id': { schema: { type: 'string' } },
            },
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          ...errorResponses([400, 401, 402, 403, 404, 409, 413, 429, 500, 503]),
        },
      },
    },
    '/api/v1/jobs/createTask': {
      post: {
        tags: ['tasks'],
        summary: 'Create a task: funds are held and the task is queued.',
        description:
          "A rejected request creates nothing and holds nothing. `quoteId` with `expectedCost`: an expired or changed quote is 40901, but a replayed accepted Idempotency-Key still returns its task. `X-Service-Retention` (whole seconds > 0) shortens the 14-day retention of outputs and prompt. A media field of the input (`\"format\": \"media-uri\"` in the model's inputSchema, e.g. `local/sketch`'s `image`) takes the `service://files/fil_...` URI of a file of this account, of the field's kind (else 400 naming the field; another account's file answers as a missing one), or a public https URL, which the runner fetches (a URL it cannot use fails the task with `input_unavailable` or `input_invalid`, uncharged). 402 carries 40201 (insufficient funds) or 40202 (the key's daily spend cap, which counts holds). 503 (business code 503) for a model that is not available (its credentials unset); 503 with business code 50301 and `Retry-After` for a model whose upstreams' circuit breakers are open (temporary: retry later). Either way nothing is held.",
        parameters: [
          idempotencyKey,
          {
            name: 'X-Service-Retention',
            in: 'header',
            required: false,
            schema: { type: 'string', pattern: '^[0-9]+$' },
            description: "Seconds (> 0); shortens retention of this task's outputs and prompt.",
          },
        ],
        requestBody: taskRequest,
        responses: {
          '202': {
            description: 'Accepted.',
            headers: {
              'X-Request-Id': { schema: { type: 'string', pattern: '^req_' } },
              Location: {
                schema: { type: 'string' },
                description: 'Relative URL of recordInfo for the task.',
              },
              'Retry-After': { schema: { type: 'string' }, description: 'Seconds before the first poll.' },
              'Cache-Control': { schema: { type: 'string', const: 'no-store' } },
              'X-RateLimit-Limit': { schema: { type: 'string' } },
              'X-RateLimit-Remaining': { schema: { type: 'string' } },
            },
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['code', 'msg', 'data', 'request_id'],
                  properties: {
                    code: { const: 200 },
                    msg: { type: 'string' },
                    data: CreateTaskResult,
                    request_id: { type: 'string', pattern: '^req_' },
                  },
                },
              },
            },
          },
          ...errorResponses([400, 401, 402, 403, 404, 409, 413, 429, 500, 503]),
        },
      },
    },
    '/api/v1/jobs/recordInfo': {
      get: {
        tags: ['tasks'],
        summary: 'Read a task: the same shape in every state; fresh signed URLs for stored assets.',
        description:
          'Unknown tasks, tasks of another account and tasks of another API key are the same 404. A taskId not shaped like one (`job_` and a ULID) is 400 before any lookup. `Cache-Control: no-store`.',
        parameters: [{ name: 'taskId', in: 'query', required: true, schema: TaskIdInput }],
        responses: {
          ...envelopeResponse('The task record.', TaskRecord, { rateLimited: true }),
          ...errorResponses([400, 401, 403, 404, 429, 500]),
        },
      },
    },
    '/api/v1/jobs/retry': {
      post: {
        tags: ['tasks'],
        summary:
          'A new, separately billed task from a failed, expired or historical canceled task of this key.',
        description:
          'The source is unchanged; model, input and callback URL are checked again (schema, price, availability, balance). Idempotency-Key is scoped to the source task and the retry action. A source in another state is 409 "Only a failed, expired or canceled task can be retried."; a purged source (by purge or at the end of retention) is 409 "A purged task cannot be retried: its prompt no longer exists." Unknown, other-account and other-key sources are 404.',
        parameters: [{ ...idempotencyKey, description: 'Scoped to the source task and the retry action.' }],
        requestBody: { required: true, content: { 'application/json': { schema: TaskIdBody } } },
        responses: {
          ...envelopeResponse('The new task.', RetryResult, { rateLimited: true }),
          ...errorResponses([400, 401, 402, 403, 404, 409, 413, 429, 500, 503]),
        },
      },
    },
    '/api/v1/jobs/purge': {
      post: {
        tags: ['tasks'],
        summary: 'Destroy the outputs and the prompt of a terminal task of this key; billing stays.',
        description:
          'Request and response fields are our choice. Purging again answers the same. A queued or running task is 409. The task record then has no input and every asset is unavailable, with `purgedAt`.',
        requestBody: { required: true, content: { 'application/json': { schema: TaskIdBody } } },
        responses: {
          ...envelopeResponse('Purged.', PurgeResult, { rateLimited: true }),
          ...errorResponses([400, 401, 403, 404, 409, 429, 500]),
        },
      },
    },
    '/api/v1/jobs': {
      get: {
        tags: ['tasks'],
        summary: "This key's task history, newest first by createdAt then taskId; metadata only.",
        description:
          'The items field is `items`. A cursor freezes the filters of the first page (including the default dates); repeating a filter with it is allowed, changing or adding one is 400 "The cursor was issued for other filters: <name> differs. …". A cursor that is not one of ours is 400 naming `cursor`. Unknown, repeated or empty parameters are 400. Past the five-second budget: 503.',
        parameters: listParams,
        responses: {
          ...envelopeResponse('One page of task summaries.', TaskPage, { rateLimited: true }),
          ...errorResponses([400, 401, 403, 429, 500, 503]),
        },
      },
    },
    '/api/v1/usage': {
      get: {
        tags: ['account'],
        summary: "Calls and settled spend of this key's tasks by creation day and model (sparse buckets).",
        description:
          'Field names are our choice. Counts tasks created by this key, attributed to their creation day (UTC); spend sums settled charges only, so late settlement can change an earlier day. Not a cash statement. A token bucket of 30 refilling 30 a minute per account (shared by its keys): X-RateLimit-Limit and X-RateLimit-Remaining describe it; 429 with Retry-After; it fails closed. Past the five-second budget: 503 (try a shorter range).',
        parameters: dateParams,
        responses: {
          ...envelopeResponse('Usage.', UsageResult, { rateLimited: true }),
          ...errorResponses([400, 401, 403, 429, 500, 503]),
        },
      },
    },
    ...downloadUrlPaths,
    ...consoleTaskPaths(),
  },
};

/** The web console's task history and usage: the native rules over the whole account, or one key. */
function consoleTaskPaths(): Record<string, Record<string, unknown>> {
  const keyId = {
    name: 'keyId',
    in: 'query',
    required: false,
    schema: { type: 'string', pattern: '^key_[0-9A-Za-z]{16}$' },
    description: "Only the tasks of this key of the account. Another account's key simply matches nothing.",
  };
  return {
    '/console/v1/tasks': {
      get: {
        tags: ['console'],
        summary: "The account's task history (every key, or one), newest first; metadata only.",
        description:
          'The rules of `GET /api/v1/jobs` (range of at most 92 days, default the last seven; state and model filters; a cursor that freezes the filters, `keyId` included) over every key of the account. Each item names its key.',
        security: CONSOLE_SECURITY,
        parameters: [...listParams, keyId],
        responses: {
          ...envelopeResponse('One page of task summaries.', ConsoleTaskPage),
          ...errorResponses([400, 401, 500, 503]),
        },
      },
    },
    '/console/v1/tasks/{taskId}': {
      get: {
        tags: ['console'],
        summary: 'One task of the account as recordInfo shows it, with fresh signed asset URLs.',
        description:
          "Any key of the account. Another account's task and an unknown one are the same 404. Its callback delivery and endpoint messages: `GET /console/v1/tasks/{taskId}/webhooks`.",
        security: CONSOLE_SECURITY,
        parameters: [{ name: 'taskId', in: 'path', required: true, schema: TaskId }],
        responses: {
          ...envelopeResponse('The task record.', TaskRecord),
          ...errorResponses([400, 401, 404, 500]),
        },
      },
    },
    '/console/v1/usage': {
      get: {
        tags: ['console'],
        summary:
          "Calls and settled spend of the account's tasks (every key, or one) by creation day and model.",
        description:
          'The rules and shape of `GET /api/v1/usage` (92-day range, settled charges only), and its bucket: 30 refilling 30 a minute per account, shared with `/api/v1/usage`.',
        security: CONSOLE_SECURITY,
        parameters: [...dateParams, keyId],
        responses: {
          ...envelopeResponse('Usage.', UsageResult, { rateLimited: true }),
          ...errorResponses([400, 401, 429, 500, 503]),
        },
      },
    },
  };
}
