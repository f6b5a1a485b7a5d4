import { Type, type Static } from '@sinclair/typebox';
import { IdPrefix } from '@gen/contracts';
import { MAX_JSON_DEPTH, idSchema, USD_AMOUNT_PATTERN } from '@gen/core';

/**
 * A task id as the service makes it (`job_` and a ULID): checked by its pattern before any query, so that a
 * malformed id is a 400 naming the field, never a lookup.
 */
/** The shape of the task ids this service makes (the console's route parameter is held to it). */
export const TaskId = idSchema(IdPrefix.task);

/**
 * A task id as the public API takes it (spec: any string of length at least 1): a text that is not one of ours
 * is a task that does not exist, 404 as for another key's task, indistinguishably. 400 only for what cannot be
 * an id at all: empty, over 256 characters, or (refused by the edge before this) holding NUL or a lone
 * surrogate.
 */
export const TaskIdInput = Type.String({
  minLength: 1,
  maxLength: 256,
  description:
    'The task id createTask gave (`job_` and a ULID). Any other text of 1 to 256 characters is a task that does not exist (404); empty, longer, or holding NUL (U+0000) or a lone surrogate is 400.',
});

/** The body of quote and createTask (spec: Task request). Unknown top-level fields are 400. */
export const TaskRequestBody = Type.Object(
  {
    model: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'Exact catalog model id; may contain slashes.',
    }),
    input: Type.Object(
      {},
      {
        additionalProperties: true,
        description: `Validated against the model's inputSchema. Media fields (\`"format": "media-uri"\`, kind in \`x-media\`) take \`service://files/fil_...\` (a ready file of this account) or a public https URL. The whole body nests at most ${MAX_JSON_DEPTH} levels of objects and arrays, and no string in it (value or key) holds NUL (U+0000) or a lone surrogate: else 400, before any other check.`,
      },
    ),
    callBackUrl: Type.Optional(
      Type.Unknown({
        description:
          'Terminal-state callback target: http or https, port 80 or 443, no user info (credentials), and every address its host resolves to public (an operator may allow private ranges with WEBHOOK_ALLOW_PRIVATE_CIDRS). Anything else: 400 "Invalid callback URL", which names no address. The callback carries the task record when the task ends, before settlement (`settled: false`, `cost` the estimate); the final cost is in recordInfo.',
      }),
    ),
    quoteId: Type.Optional(
      Type.String({
        maxLength: 4096,
        pattern: '^quo_[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$',
        description: 'From quote; send with expectedCost.',
      }),
    ),
    expectedCost: Type.Optional(
      Type.String({
        pattern: USD_AMOUNT_PATTERN,
        description: 'The price the quote confirmed, USD decimal.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TaskRequestBody = Static<typeof TaskRequestBody>;

export const RecordInfoQuery = Type.Object({ taskId: TaskIdInput }, { additionalProperties: false });
export type RecordInfoQuery = Static<typeof RecordInfoQuery>;

const Usd = (description: string) => Type.String({ pattern: USD_AMOUNT_PATTERN, description });
const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

/** Text tasks: the assistant message as the chat protocols carry it. */
const TextMessage = Type.Object(
  {
    role: Type.Literal('assistant'),
    content: Type.Union([Type.String(), Type.Null()], {
      description: 'Null when the answer is only tool calls.',
    }),
    reasoning_content: Type.Optional(
      Type.String({ description: 'Reasoning text, when the model showed it.' }),
    ),
    thinking_blocks: Type.Optional(
      Type.Array(
        Type.Union([
          Type.Object(
            { type: Type.Literal('thinking'), thinking: Type.String(), signature: Type.String() },
            { additionalProperties: false },
          ),
          Type.Object(
            { type: Type.Literal('redacted_thinking'), data: Type.String() },
            { additionalProperties: false },
          ),
        ]),
        {
          description:
            'Signed reasoning (Claude’s extended thinking), when the model signed it: send it back unchanged in the assistant message of the next turn.',
        },
      ),
    ),
    tool_calls: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.String(),
            type: Type.Literal('function'),
            function: Type.Object(
              {
                name: Type.String(),
                arguments: Type.String({ description: 'JSON text, as the model wrote it.' }),
              },
              { additionalProperties: false },
            ),
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false, description: 'Text tasks: the answer as an assistant message.' },
);

/** Text tasks: tokens used; prompt tokens include cached ones, completion tokens include reasoning ones. */
const TextUsage = Type.Object(
  {
    prompt_tokens: Type.Integer({ minimum: 0 }),
    cached_tokens: Type.Integer({ minimum: 0 }),
    completion_tokens: Type.Integer({ minimum: 0 }),
    reasoning_tokens: Type.Integer({ minimum: 0 }),
  },
  {
    additionalProperties: false,
    description:
      'Text tasks: the tokens charged. prompt_tokens includes cached_tokens; completion_tokens includes reasoning_tokens.',
  },
);

export const QuoteResult = Type.Object(
  {
    quoteId: Type.String({
      pattern: '^quo_',
      description: 'Send with expectedCost to createTask or stream.',
    }),
    model: Type.String({ description: 'The exact catalog id (an alias resolved).' }),
    currency: Type.Literal('USD'),
    price: Usd('Customer price of this exact request at the account prices.'),
    maxCharge: Usd('The most the task can be charged: the amount held at acceptance.'),
    expiresAt: Timestamp('Five minutes after the quote.'),
  },
  { additionalProperties: false },
);

export const CreateTaskResult = Type.Object(
  {
    taskId: Type.String({ pattern: '^job_' }),
    state: Type.String({ description: '`queued`; an idempotent replay shows the current state.' }),
    estimatedCost: Usd('The held estimate: the ceiling of the charge.'),
    deadlineAt: Timestamp('The task expires (cost 0) if it is not finished by then.'),
  },
  { additionalProperties: false },
);

export const AssetRecord = Type.Object(
  {
    key: Type.String({ description: 'Storage key of the output.' }),
    mime: Type.String(),
    url: Type.Optional(Type.String({ description: 'Short-lived signed URL; no API credentials needed.' })),
    expiresAt: Type.Optional(Timestamp('Expiry of url; reading the task again signs a new one.')),
    width: Type.Optional(Type.Integer()),
    height: Type.Optional(Type.Integer()),
    bytes: Type.Optional(Type.Integer()),
    durationSeconds: Type.Optional(Type.Number({ description: 'Audio and video: length in seconds.' })),
    pending: Type.Optional(Type.Literal(true)),
    unavailable: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);

export const TaskRecord = Type.Object(
  {
    taskId: Type.String({ pattern: '^job_' }),
    model: Type.String(),
    state: Type.Union(
      ['queued', 'running', 'succeeded', 'failed', 'canceled', 'expired'].map((s) => Type.Literal(s)),
    ),
    input: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Absent once purged.' })),
    output: Type.Optional(
      Type.Object(
        {
          assets: Type.Array(AssetRecord, { description: 'The stored files; empty for a text task.' }),
          text: Type.Optional(Type.String({ description: 'Text tasks: the answer text.' })),
          message: Type.Optional(TextMessage),
          usage: Type.Optional(TextUsage),
          finishReason: Type.Optional(
            Type.Union(
              ['stop', 'length', 'tool_calls', 'content_filter'].map((r) => Type.Literal(r)),
              {
                description: 'Text tasks: why the answer ended.',
              },
            ),
          ),
        },
        {
          additionalProperties: false,
          description:
            'Present for succeeded tasks. Text tasks (a choice of ours: the spec leaves non-media results open) add `text`, `message`, `usage` and `finishReason`; their `assets` are empty.',
        },
      ),
    ),
    errorCode: Type.Optional(
      Type.String({
        description:
          "Failed tasks: upstream_failed, content_rejected, internal_error; input_unavailable (a media input could not be read: file gone, URL refused, unreachable, not 200 or too large), input_invalid (a media input is not a supported file of its field's kind); service_interrupted (a streamed text answer the service lost: its process stopped before the answer began, or died; nothing charged, and the Idempotency-Key may be used again).",
      }),
    ),
    errorMessage: Type.Optional(Type.String({ description: 'Localized.' })),
    cost: Usd('Final once settled; "0" for failed and expired tasks; the estimate until then.'),
    settled: Type.Boolean(),
    estimatedCost: Usd('The amount held at acceptance.'),
    createdAt: Timestamp('Acceptance time.'),
    deadlineAt: Timestamp('Expiry time of an unfinished task.'),
    completedAt: Type.Optional(Timestamp('Present once terminal.')),
    sourceTaskId: Type.Optional(Type.String({ pattern: '^job_' })),
    purgedAt: Type.Optional(Timestamp('Outputs and prompt destroyed (purge, or the end of retention).')),
  },
  { additionalProperties: false },
);

export const TaskIdBody = Type.Object({ taskId: TaskIdInput }, { additionalProperties: false });
export type TaskIdBody = Static<typeof TaskIdBody>;

const DateParam = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD, UTC.' });

export const ListTasksQuery = Type.Object(
  {
    from: Type.Optional({ ...DateParam, description: 'Inclusive UTC date; default seven days before `to`.' }),
    to: Type.Optional({ ...DateParam, description: 'Exclusive UTC date; default tomorrow.' }),
    state: Type.Optional(
      Type.Union(
        ['queued', 'running', 'succeeded', 'failed', 'canceled', 'expired'].map((s) => Type.Literal(s)),
      ),
    ),
    model: Type.Optional(
      Type.String({ minLength: 1, maxLength: 256, description: 'Exact id or declared alias.' }),
    ),
    limit: Type.Optional(
      // `default` documents the value taken when absent (the validator does not fill defaults in).
      Type.String({ pattern: '^(100|[1-9][0-9]?)$', default: '20', description: '1 to 100, default 20.' }),
    ),
    cursor: Type.Optional(
      Type.String({
        maxLength: 2048,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'nextCursor of the previous page; it freezes the filters.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListTasksQuery = Static<typeof ListTasksQuery>;

export const UsageQuery = Type.Object(
  {
    from: Type.Optional({ ...DateParam, description: 'Inclusive UTC date; default seven days before `to`.' }),
    to: Type.Optional({ ...DateParam, description: 'Exclusive UTC date; default tomorrow.' }),
  },
  { additionalProperties: false },
);
export type UsageQuery = Static<typeof UsageQuery>;

const KeyIdParam = Type.String({
  pattern: `^${IdPrefix.apiKey}_[0-9A-Za-z]{16}$`,
  description: 'Only the tasks of this key of the account (`key_...`).',
});

/** GET /console/v1/tasks: the native list's filters, over every key of the account, or one (`keyId`). */
export const ConsoleTasksQuery = Type.Object(
  { ...ListTasksQuery.properties, keyId: Type.Optional(KeyIdParam) },
  { additionalProperties: false },
);
export type ConsoleTasksQuery = Static<typeof ConsoleTasksQuery>;

/** GET /console/v1/usage: the native usage's range, over every key of the account, or one (`keyId`). */
export const ConsoleUsageQuery = Type.Object(
  { ...UsageQuery.properties, keyId: Type.Optional(KeyIdParam) },
  { additionalProperties: false },
);
export type ConsoleUsageQuery = Static<typeof ConsoleUsageQuery>;

/** GET /console/v1/tasks/{taskId}: the path parameter. */
export const ConsoleTaskIdParam = TaskId;

export const RetryResult = Type.Object(
  {
    taskId: Type.String({ pattern: '^job_' }),
    sourceTaskId: Type.String({ pattern: '^job_' }),
    state: Type.String({ description: '`queued`; an idempotent replay shows the current state.' }),
    estimatedCost: Usd('The held estimate of the new task.'),
    deadlineAt: Timestamp('The new task expires if it is not finished by then.'),
  },
  { additionalProperties: false },
);

export const PurgeResult = Type.Object(
  {
    taskId: Type.String({ pattern: '^job_' }),
    purged: Type.Literal(true),
    purgedAt: Timestamp('When it was purged.'),
  },
  { additionalProperties: false },
);

export const TaskSummary = Type.Object(
  {
    taskId: Type.String({ pattern: '^job_' }),
    model: Type.String(),
    state: Type.String(),
    createdAt: Timestamp('Acceptance time.'),
    completedAt: Type.Optional(Timestamp('Present once terminal.')),
    cost: Usd('As in the task record.'),
    settled: Type.Boolean(),
    estimatedCost: Usd('The amount held at acceptance.'),
    requestId: Type.String({
      pattern: '^req_',
      description: 'X-Request-Id of the call that created the task.',
    }),
    sourceTaskId: Type.Optional(Type.String({ pattern: '^job_' })),
    purged: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);

export const TaskPage = Type.Object(
  {
    items: Type.Array(TaskSummary),
    nextCursor: Type.Optional(Type.String({ description: 'Absent on the last page.' })),
  },
  { additionalProperties: false },
);

/** GET /console/v1/tasks: the summaries of the account's tasks, each naming the key that created it. */
export const ConsoleTaskPage = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          ...TaskSummary.properties,
          keyId: Type.String({ pattern: '^key_', description: 'The creating key.' }),
        },
        { additionalProperties: false },
      ),
    ),
    nextCursor: Type.Optional(Type.String({ description: 'Absent on the last page.' })),
  },
  { additionalProperties: false },
);

const UsageBucket = {
  calls: Type.Integer({ minimum: 0 }),
  spend: Usd('Settled charges only; holds never count.'),
};
export const UsageResult = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    currency: Type.Literal('USD'),
    totals: Type.Object(UsageBucket, { additionalProperties: false }),
    days: Type.Array(
      Type.Object(
        {
          date: Type.String({ description: 'UTC day of task creation; only days with calls.' }),
          ...UsageBucket,
          models: Type.Array(
            Type.Object({ model: Type.String(), ...UsageBucket }, { additionalProperties: false }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    models: Type.Array(
      Type.Object({ model: Type.String(), ...UsageBucket }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
