import type { OpenApiFragment } from '@gen/edge';
import { compatErrorSchemas, ERROR_SCHEMA, refused } from './compat-errors.openapi';
import {
  KEEPALIVE,
  NOT_FOUND_LIST,
  ref,
  securitySchemes,
  string,
  TEXT_HEADERS,
  textAnswer,
  textErrors,
  textOperation,
  unsupported,
} from './compat-operation.openapi';
import {
  ChatCompletionsRequest,
  GenerateContentRequest,
  MessagesRequest,
  ResponsesRequest,
} from './compat-requests.openapi';
import {
  ChatCompletion,
  GenerateContentResponse,
  MessageObject,
  ResponseObject,
  VideoObject,
} from './compat-responses.openapi';
import { videoPaths } from './compat-videos.openapi';

const MODEL_PARAMETER = {
  name: 'model',
  in: 'path',
  required: true,
  description: 'The model id; its slashes stay as they are (raw, or encoded as %2F).',
  schema: string(),
};

const GENERATE_DESCRIPTION =
  'Generate-content style. Mapping: systemInstruction + contents -> messages, generationConfig.maxOutputTokens ' +
  '-> max_tokens, temperature, topP, topK, stopSequences, responseMimeType with responseSchema or ' +
  'responseJsonSchema -> response_format, thinkingConfig (thinkingLevel, or thinkingBudget: 0 none, up to ' +
  '1024 low, up to 8192 medium, above high, -1 the model default) -> reasoning_effort, ' +
  'tools[].functionDeclarations -> tools, toolConfig.functionCallingConfig -> tool_choice. A functionCall part ' +
  'is answered by a functionResponse part with the same name. Errors name the field in ' +
  '`details[].fieldViolations`. Served alike under `/v1beta/models/` and `/v1/models/` (the one ' +
  "`@google/genai` 3.x calls unless given `apiVersion: 'v1beta'`), every error in Google's shape on both. " +
  'Paths under /v1beta other than these two answer 404 in this shape.';

const GENERATE_ERRORS = textErrors('google', {
  400: [unsupported('cachedContent', 'generate_content.unsupported_parameter')],
});

/** `:generateContent`, the same operation under `/v1beta/models/` and `/v1/models/`. */
const GENERATE_CONTENT = textOperation({
  summary: 'Generate-content style: one GenerateContentResponse.',
  description: GENERATE_DESCRIPTION,
  body: GenerateContentRequest,
  parameters: [MODEL_PARAMETER],
  responses: {
    '200': {
      description: 'The answer.',
      headers: { ...TEXT_HEADERS, ...KEEPALIVE },
      content: {
        'application/json': {
          schema: {
            anyOf: [ref('GenerateContentResponse'), ref(ERROR_SCHEMA.google)],
            description:
              'A GenerateContentResponse (or, after X-Service-Keepalive, the error that ended it).',
          },
        },
      },
    },
    ...GENERATE_ERRORS,
  },
});

/** `:streamGenerateContent`, the same operation under `/v1beta/models/` and `/v1/models/`. */
const STREAM_GENERATE_CONTENT = textOperation({
  summary: 'Generate-content style, streamed: SSE with `?alt=sse`, else one JSON array written as it grows.',
  description: `${GENERATE_DESCRIPTION} The last chunk carries \`finishReason\` and \`usageMetadata\`; there is no \`[DONE]\`.`,
  body: GenerateContentRequest,
  parameters: [
    MODEL_PARAMETER,
    {
      name: 'alt',
      in: 'query',
      required: false,
      description: '`sse` for Server-Sent Events; otherwise (absent, `json`) the answer is one JSON array.',
      schema: string(),
    },
  ],
  responses: {
    '200': {
      description: 'The chunks.',
      headers: TEXT_HEADERS,
      content: {
        'text/event-stream': {
          schema: string(),
          description:
            'With `alt=sse`: `data: {GenerateContentResponse}` events. A failure after the start is one ' +
            '`data:` event holding the Google error object.',
        },
        'application/json': {
          schema: {
            type: 'array',
            items: { anyOf: [ref('GenerateContentResponse'), ref(ERROR_SCHEMA.google)] },
            description:
              'Without `alt=sse`: a JSON array of GenerateContentResponse chunks, written incrementally and ' +
              'kept alive with whitespace. A failure after the start is a last element holding the Google ' +
              'error object; the array is still closed.',
          },
        },
      },
    },
    ...GENERATE_ERRORS,
  },
});

/**
 * The compatibility family in the OpenAPI document: `/v1/chat/completions`, `/v1/responses`, `/v1/messages`,
 * `/v1beta/models/{model}:generateContent` and `:streamGenerateContent` (and both under `/v1/models/`),
 * `/v1/videos/*` (CompatController). Each speaks its protocol's shapes, without the envelope; errors too
 * (compat-errors.openapi.ts). Described by hand, not generated (`openApiOf`): these routes take `@Body() body:
 * unknown`, and what enforces a body is the protocol's reader (`map*Request`, e.g. mapChatCompletionsRequest,
 * mapVideoRequest), code rather than a schema; the request schemas here (compat-requests.openapi.ts) describe
 * what the readers accept and are kept beside them.
 */
export const compatOpenApi: OpenApiFragment = {
  components: {
    securitySchemes,
    schemas: {
      ...compatErrorSchemas,
      ChatCompletion,
      ResponsesResponse: ResponseObject,
      MessagesMessage: MessageObject,
      GenerateContentResponse,
      Video: VideoObject,
    },
  },
  paths: {
    '/v1/chat/completions': textOperation({
      summary: 'Chat-completions style: one answer, or its chunk stream with `stream: true`.',
      description:
        'OpenAI chat completions. The id is `chatcmpl-` and the x-request-id value. Tool calls stream in ' +
        '`tool_calls` fragments assembled by index; each choice ends with exactly one chunk carrying its ' +
        `\`finish_reason\`. ${NOT_FOUND_LIST}`,
      body: ChatCompletionsRequest,
      responses: {
        ...textAnswer(
          'openai',
          'A ChatCompletion (or, after X-Service-Keepalive, the error that ended it).',
          'ChatCompletion',
          '`data: {chat.completion.chunk}` events, then `data: [DONE]`. With `stream_options.include_usage` ' +
            'every chunk has `usage: null` and a last chunk with empty `choices` carries the usage; without it ' +
            'no chunk has `usage`. A failure after the start is one `data:` chunk holding an `error` object, ' +
            'without `[DONE]`.',
        ),
        ...textErrors('openai', { 400: [unsupported('logprobs')] }),
      },
    }),
    '/v1/responses': textOperation({
      summary: 'Responses style: one Response, or its event stream with `stream: true`.',
      description:
        'OpenAI Responses, stateless: `previous_response_id` is not supported, the whole history goes in ' +
        '`input`. Mapping: instructions + input -> messages, max_output_tokens -> max_tokens, text.format -> ' +
        'response_format, reasoning.effort -> reasoning_effort, function tools.',
      body: ResponsesRequest,
      responses: {
        ...textAnswer(
          'openai',
          'A Response (or, after X-Service-Keepalive, the error that ended it).',
          'ResponsesResponse',
          'Events with `event:` lines: response.created, response.in_progress, response.output_item.added / ' +
            '.done, response.content_part.added / .done, response.output_text.delta / .done, ' +
            'response.reasoning_summary_part.added / .done, response.reasoning_summary_text.delta / .done, ' +
            'response.function_call_arguments.delta / .done, then ' +
            'response.completed (or response.incomplete) carrying `response.usage`. A failure after the start ' +
            'is an `error` event with `code`, `message`, `param`.',
        ),
        ...textErrors('openai', {
          400: [
            refused(
              '`previous_response_id`',
              400,
              'unsupported_parameter',
              'responses.previous_response_id',
              {},
              'previous_response_id',
            ),
          ],
        }),
      },
    }),
    '/v1/messages': textOperation({
      summary: 'Messages style: one Message, or its event stream with `stream: true`.',
      description:
        'Anthropic Messages. `max_tokens` is required. Mapping: system + messages -> messages, stop_sequences ' +
        '-> stop, custom tools -> tools, tool_choice auto / any / tool / none -> auto / required / the named ' +
        'function / none, tool_choice.disable_parallel_tool_use -> parallel_tool_calls (negated). Content ' +
        'blocks: text, image, tool_use, tool_result.',
      body: MessagesRequest,
      responses: {
        ...textAnswer(
          'anthropic',
          'A Message (or, after X-Service-Keepalive, the error that ended it).',
          'MessagesMessage',
          'Events with `event:` lines: message_start, ping, content_block_start / _delta (text_delta, ' +
            'thinking_delta, signature_delta, input_json_delta) / _stop, message_delta (stop reason and usage), ' +
            'message_stop. A ' +
            'failure after the start is `event: error` with the error body.',
        ),
        ...textErrors('anthropic', { 400: [unsupported('service_tier')] }),
      },
    }),
    '/v1beta/models/{model}:generateContent': GENERATE_CONTENT,
    '/v1beta/models/{model}:streamGenerateContent': STREAM_GENERATE_CONTENT,
    '/v1/models/{model}:generateContent': GENERATE_CONTENT,
    '/v1/models/{model}:streamGenerateContent': STREAM_GENERATE_CONTENT,
    ...videoPaths,
  },
};
