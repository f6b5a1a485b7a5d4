import { Type, type TObject, type TProperties } from '@sinclair/typebox';

/**
 * The success bodies of the compatibility endpoints, as the writers make them (`writeChatCompletionsResponse`,
 * `writeResponsesResponse`, `writeMessagesResponse`, `writeGenerateContentResponse`, `writeVideo`). Closed
 * objects: a field the writers add must be documented here first (the embedded tests check real answers).
 */

const closed = <T extends TProperties>(properties: T, description?: string): TObject<T> =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });
const Count = Type.Integer({ minimum: 0 });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const JsonObject = Type.Record(Type.String(), Type.Unknown());

const FinishReason = Type.Union(
  ['stop', 'length', 'tool_calls', 'content_filter'].map((r) => Type.Literal(r)),
);

export const ChatCompletion = closed(
  {
    id: Type.String({ pattern: '^chatcmpl-req_', description: '`chatcmpl-` and the x-request-id value.' }),
    object: Type.Literal('chat.completion'),
    created: Type.Integer({ description: 'Unix seconds.' }),
    model: Type.String({ description: 'The model id that ran.' }),
    choices: Type.Array(
      closed({
        index: Type.Literal(0),
        message: closed({
          role: Type.Literal('assistant'),
          content: Nullable(Type.String()),
          reasoning_content: Type.Optional(Type.String({ description: 'Only when the model reasoned.' })),
          thinking_blocks: Type.Optional(
            Type.Array(
              Type.Union([
                closed({ type: Type.Literal('thinking'), thinking: Type.String(), signature: Type.String() }),
                closed({ type: Type.Literal('redacted_thinking'), data: Type.String() }),
              ]),
              {
                description:
                  'Only when the model signed its reasoning: sent back unchanged on the next turn.',
              },
            ),
          ),
          tool_calls: Type.Optional(
            Type.Array(
              closed({
                id: Type.String(),
                type: Type.Literal('function'),
                function: closed({
                  name: Type.String(),
                  arguments: Type.String({ description: 'JSON text.' }),
                }),
              }),
            ),
          ),
          refusal: Type.Null(),
        }),
        finish_reason: FinishReason,
      }),
      { minItems: 1, maxItems: 1 },
    ),
    usage: closed({
      prompt_tokens: Count,
      completion_tokens: Count,
      total_tokens: Count,
      prompt_tokens_details: closed({ cached_tokens: Count }),
      completion_tokens_details: closed({
        reasoning_tokens: Count,
      }),
    }),
  },
  'A chat completion. `completion_tokens` includes the reasoning tokens; no `system_fingerprint`, no `logprobs`.',
);

const ResponseItem = Type.Union([
  closed({
    id: Type.String({ pattern: '^msg_' }),
    type: Type.Literal('message'),
    status: Type.String(),
    role: Type.Literal('assistant'),
    content: Type.Array(
      closed({
        type: Type.Literal('output_text'),
        annotations: Type.Array(Type.Unknown(), { maxItems: 0 }),
        logprobs: Type.Array(Type.Unknown(), { maxItems: 0 }),
        text: Type.String(),
      }),
    ),
  }),
  closed({
    id: Type.String({ pattern: '^rs_' }),
    type: Type.Literal('reasoning'),
    summary: Type.Array(closed({ type: Type.Literal('summary_text'), text: Type.String() }), { maxItems: 1 }),
    encrypted_content: Type.Optional(
      Type.String({ description: 'A signed reasoning block: send the item back in `input` as it came.' }),
    ),
  }),
  closed({
    id: Type.String({ pattern: '^fc_' }),
    type: Type.Literal('function_call'),
    status: Type.Literal('completed'),
    call_id: Type.String(),
    name: Type.String(),
    arguments: Type.String({ description: 'JSON text.' }),
  }),
]);

export const ResponseObject = closed(
  {
    id: Type.String({ pattern: '^resp_req_' }),
    object: Type.Literal('response'),
    created_at: Type.Integer(),
    status: Type.Union([Type.Literal('completed'), Type.Literal('incomplete')]),
    background: Type.Literal(false),
    error: Type.Null(),
    incomplete_details: Nullable(
      closed({ reason: Type.Union([Type.Literal('max_output_tokens'), Type.Literal('content_filter')]) }),
    ),
    instructions: Type.Null(),
    max_output_tokens: Nullable(Type.Integer()),
    model: Type.String(),
    output: Type.Array(ResponseItem, {
      description:
        'Reasoning items when the model reasoned (one per signed block), the message (unless only tools were ' +
        'called), the calls.',
    }),
    parallel_tool_calls: Type.Boolean(),
    previous_response_id: Type.Null(),
    reasoning: closed({ effort: Nullable(Type.String()), summary: Type.Null() }),
    store: Type.Literal(false),
    temperature: Nullable(Type.Number()),
    text: closed({
      format: Type.Object(
        { type: Type.Union(['text', 'json_object', 'json_schema'].map((t) => Type.Literal(t))) },
        { description: 'json_schema repeats the request’s `name`, `schema`, `strict`.' },
      ),
    }),
    tool_choice: Type.Union([
      Type.Union(['auto', 'none', 'required'].map((t) => Type.Literal(t))),
      closed({ type: Type.Literal('function'), name: Type.String() }),
    ]),
    tools: Type.Array(
      closed({
        type: Type.Literal('function'),
        name: Type.String(),
        description: Nullable(Type.String()),
        parameters: Nullable(JsonObject),
        strict: Nullable(Type.Boolean()),
      }),
    ),
    top_p: Nullable(Type.Number()),
    truncation: Type.Literal('disabled'),
    usage: closed({
      input_tokens: Count,
      input_tokens_details: closed({ cached_tokens: Count }),
      output_tokens: Count,
      output_tokens_details: closed({ reasoning_tokens: Count }),
      total_tokens: Count,
    }),
    user: Type.Null(),
    metadata: closed({}),
  },
  'A Response. Request settings are echoed as sent; a length or content-filter finish is `incomplete`.',
);

export const MessageObject = closed(
  {
    id: Type.String({ pattern: '^msg_req_' }),
    type: Type.Literal('message'),
    role: Type.Literal('assistant'),
    model: Type.String(),
    content: Type.Array(
      Type.Union([
        closed({
          type: Type.Literal('thinking'),
          thinking: Type.String(),
          signature: Type.String({ description: 'Empty for reasoning nobody signed.' }),
        }),
        closed({ type: Type.Literal('redacted_thinking'), data: Type.String() }),
        closed({ type: Type.Literal('text'), text: Type.String() }),
        closed({ type: Type.Literal('tool_use'), id: Type.String(), name: Type.String(), input: JsonObject }),
      ]),
    ),
    stop_reason: Type.Union(['end_turn', 'max_tokens', 'tool_use', 'refusal'].map((r) => Type.Literal(r))),
    stop_sequence: Type.Null(),
    usage: closed({
      input_tokens: Count,
      cache_creation_input_tokens: Type.Literal(0),
      cache_read_input_tokens: Count,
      output_tokens: Count,
    }),
  },
  'A Message. `input_tokens` excludes the cached tokens (`cache_read_input_tokens`).',
);

const GooglePart = Type.Union([
  closed({ text: Type.String(), thought: Type.Optional(Type.Literal(true)) }),
  closed({
    thoughtSignature: Type.String({
      description: 'A signed reasoning block: send the part back as it came.',
    }),
  }),
  closed({
    functionCall: closed({ id: Type.Optional(Type.String()), name: Type.String(), args: JsonObject }),
  }),
]);

/** One GenerateContentResponse: a whole answer, or a chunk of a stream (finishReason and usage on the last). */
export const GenerateContentResponse = closed(
  {
    candidates: Type.Array(
      closed({
        content: closed({ parts: Type.Array(GooglePart), role: Type.Literal('model') }),
        finishReason: Type.Optional(
          Type.Union(
            ['STOP', 'MAX_TOKENS', 'SAFETY'].map((r) => Type.Literal(r)),
            {
              description: 'On a whole answer and on the last chunk of a stream.',
            },
          ),
        ),
        index: Type.Literal(0),
      }),
      { minItems: 1, maxItems: 1 },
    ),
    usageMetadata: Type.Optional(
      closed({
        promptTokenCount: Count,
        candidatesTokenCount: Count,
        totalTokenCount: Count,
        thoughtsTokenCount: Type.Optional(Count),
        cachedContentTokenCount: Type.Optional(Count),
      }),
    ),
    modelVersion: Type.String(),
    responseId: Type.String({ pattern: '^req_' }),
  },
  'Thought parts only with `thinkingConfig.includeThoughts`; tool calls end with STOP.',
);

export const VideoObject = closed(
  {
    id: Type.String({ pattern: '^job_', description: 'The task id (as X-Service-Task-Id and recordInfo).' }),
    object: Type.Literal('video'),
    model: Type.String(),
    status: Type.Union(['queued', 'in_progress', 'completed', 'failed'].map((s) => Type.Literal(s))),
    progress: Type.Union([Type.Literal(0), Type.Literal(50), Type.Literal(100)]),
    created_at: Type.Integer(),
    completed_at: Nullable(Type.Integer()),
    expires_at: Type.Null(),
    seconds: Nullable(Type.String()),
    size: Nullable(Type.String()),
    error: Nullable(closed({ code: Type.String(), message: Type.String() })),
  },
  'A Video: a task of a video model. A failed, expired or canceled task is `failed` with `error`.',
);
