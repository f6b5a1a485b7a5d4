import { Type, type TSchema } from '@sinclair/typebox';

/**
 * The request bodies of the compatibility endpoints: the fields each protocol's mapper reads (see its
 * `request.ts`), briefly. Each body allows more properties because the protocols have more fields: the field
 * rules (FIELD_RULES) ignore, adjust or refuse them, which a schema cannot say.
 */

/** The field-handling rules shared by the four text protocols (spec: Field handling), for descriptions. */
export const FIELD_RULES =
  'Field handling: protocol fields become canonical parameters, checked against the model’s `inputSchema` ' +
  '(`GET /v1/models` lists each model’s `supported_parameters`); a field set to null counts as absent. ' +
  'Ignored, and named comma separated in `X-Service-Ignored-Params`: sampling fields the model does not list ' +
  '(temperature, top_p, top_k, min_p, top_a, frequency_penalty, presence_penalty, repetition_penalty), `n: 1`, ' +
  'an empty `stop`, `stop` on a model without stop sequences, `reasoning_effort` on a model without levels, ' +
  'and the protocol’s platform fields (below). Adjusted, and named as `name=value` in ' +
  '`X-Service-Adjusted-Params`: a sampling value or `max_tokens` beyond the model’s bound (clamped), a `stop` ' +
  'list longer than the model allows (its first entries kept; the value is the number kept), a reasoning level ' +
  'the model lacks (the nearest offered level, the lower on a tie). Any other field, or a part, block, item or ' +
  'tool type not listed here, is 400 with code `unsupported_parameter` and `param` naming it as a dot path ' +
  '(`logprobs`, `seed`, `n` other than 1, aggregator fields such as `models` or `provider`); so are tools, ' +
  '`tool_choice`, `parallel_tool_calls`, `response_format` and images on a model that does not list them. ' +
  '`quoteId` and `expectedCost` are not accepted: the price applies at acceptance. The hold covers the ' +
  'messages plus the full `max_tokens` (the model’s default when omitted).';

const open = <T extends Record<string, TSchema>>(
  properties: T,
  required: readonly (keyof T & string)[],
  description: string,
) =>
  Type.Object(
    Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [
        name,
        required.includes(name) ? schema : Type.Optional(schema),
      ]),
    ) as T,
    { additionalProperties: true, description },
  );

const JsonObject = Type.Record(Type.String(), Type.Unknown());
const Sampling = (description: string) => Type.Number({ description });
const Ignored = (description = 'Accepted and ignored (X-Service-Ignored-Params).') =>
  Type.Unknown({ description });
const StringOrStrings = Type.Union([Type.String(), Type.Array(Type.String())]);

/** The image URLs a conversation may carry (checked before any hold; libs/contracts chat-images.ts). */
const IMAGE_URL_RULES =
  'A base64 `data:` URL of a PNG, JPEG, WebP or GIF of at most 10 MiB; an `https` URL on port 443 without user ' +
  'info, at most 2,048 characters; or the `service://files/fil_...` URI of a ready image of your account. ' +
  'Anything else is 400 naming the part, before any hold. An upstream that cannot take a URL gets the bytes.';

const ChatPart = Type.Union([
  Type.Object({ type: Type.Literal('text'), text: Type.String() }),
  Type.Object({
    type: Type.Literal('image_url'),
    image_url: Type.Object({
      url: Type.String({ description: IMAGE_URL_RULES }),
      detail: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('low'), Type.Literal('high')])),
    }),
  }),
]);

const ChatToolCall = Type.Object({
  id: Type.String(),
  type: Type.Literal('function'),
  function: Type.Object({ name: Type.String(), arguments: Type.String() }),
});

/** A signed reasoning block of an earlier answer (Anthropic's; LiteLLM's field name), sent back unchanged. */
const ThinkingBlock = Type.Union([
  Type.Object(
    { type: Type.Literal('thinking'), thinking: Type.String(), signature: Type.String({ minLength: 1 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { type: Type.Literal('redacted_thinking'), data: Type.String({ minLength: 1 }) },
    { additionalProperties: false },
  ),
]);

const ChatMessage = Type.Object(
  {
    role: Type.Union(['system', 'developer', 'user', 'assistant', 'tool'].map((r) => Type.Literal(r))),
    content: Type.Optional(Type.Union([Type.String(), Type.Array(ChatPart), Type.Null()])),
    name: Type.Optional(Type.String()),
    tool_call_id: Type.Optional(Type.String({ description: 'Role tool: the id of the call it answers.' })),
    tool_calls: Type.Optional(Type.Array(ChatToolCall, { description: 'Role assistant.' })),
    reasoning_content: Type.Optional(
      Type.String({ description: 'Role assistant: the reasoning text of an earlier answer, as it came.' }),
    ),
    thinking_blocks: Type.Optional(
      Type.Array(ThinkingBlock, {
        description:
          'Role assistant: the signed reasoning blocks of an earlier answer, in order and unchanged (a model ' +
          'that checks them, Claude, refuses a tool loop without them).',
      }),
    ),
  },
  {
    description:
      'Content is required except on an assistant turn with tool calls. An assistant message’s `refusal` and ' +
      '`annotations` copied back from a response are ignored; other keys and part types (`input_audio`, ' +
      '`file`) are 400 unsupported_parameter.',
  },
);

const ChatTool = Type.Object({
  type: Type.Literal('function'),
  function: Type.Object({
    name: Type.String(),
    description: Type.Optional(Type.String()),
    parameters: Type.Optional(JsonObject),
    strict: Type.Optional(Type.Boolean()),
  }),
});

const samplingOf = (names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, Sampling('Ignored when the model does not list it.')]));

export const ChatCompletionsRequest = open(
  {
    model: Type.String({ minLength: 1, description: 'Any model id of `GET /v1/models?modality=text`.' }),
    messages: Type.Array(ChatMessage, { minItems: 1 }),
    max_tokens: Type.Integer(),
    max_completion_tokens: Type.Integer({
      description: 'Same as max_tokens; both with different values: 400.',
    }),
    ...samplingOf([
      'temperature',
      'top_p',
      'top_k',
      'min_p',
      'top_a',
      'frequency_penalty',
      'presence_penalty',
      'repetition_penalty',
    ]),
    stop: StringOrStrings,
    reasoning_effort: Type.String({ description: 'Levels differ per model (none, minimal, low, ... max).' }),
    reasoning: Type.Object(
      { effort: Type.Optional(Type.String()), enabled: Type.Optional(Type.Boolean()) },
      {
        description:
          'Aggregator form: `effort` is reasoning_effort, `enabled: false` is none; other keys ignored.',
      },
    ),
    tools: Type.Array(ChatTool, { description: 'Function tools only.' }),
    tool_choice: Type.Union([
      Type.Union([Type.Literal('auto'), Type.Literal('none'), Type.Literal('required')]),
      Type.Object({ type: Type.Literal('function'), function: Type.Object({ name: Type.String() }) }),
    ]),
    parallel_tool_calls: Type.Boolean(),
    response_format: Type.Object({
      type: Type.Union([Type.Literal('text'), Type.Literal('json_object'), Type.Literal('json_schema')]),
      json_schema: Type.Optional(JsonObject),
    }),
    stream: Type.Boolean(),
    stream_options: Type.Object(
      { include_usage: Type.Optional(Type.Boolean()), include_obfuscation: Type.Optional(Type.Boolean()) },
      { description: 'Only with `stream: true` (else 400). `include_obfuscation` is ignored.' },
    ),
    n: Type.Integer({ description: '1 only (ignored); any other value is 400 unsupported_parameter.' }),
    user: Ignored(),
    metadata: Ignored(),
    store: Ignored(),
  },
  ['model', 'messages'],
  'Chat completions request. Platform fields ignored: `user`, `metadata`, `store`.',
);

const InputPart = Type.Union([
  Type.Object({
    type: Type.Union([Type.Literal('input_text'), Type.Literal('output_text')]),
    text: Type.String(),
  }),
  Type.Object({ type: Type.Literal('refusal'), refusal: Type.String() }),
  Type.Object({
    type: Type.Literal('input_image'),
    image_url: Type.String({ description: `${IMAGE_URL_RULES} \`file_id\` is refused.` }),
    detail: Type.Optional(Type.String()),
  }),
]);

const InputItem = Type.Union([
  Type.Object({
    type: Type.Optional(Type.Literal('message')),
    role: Type.Union(['user', 'assistant', 'system', 'developer'].map((r) => Type.Literal(r))),
    content: Type.Union([Type.String(), Type.Array(InputPart)]),
  }),
  Type.Object({
    type: Type.Literal('function_call'),
    call_id: Type.String(),
    name: Type.String(),
    arguments: Type.String(),
  }),
  Type.Object({
    type: Type.Literal('function_call_output'),
    call_id: Type.String({ description: 'The call_id of an earlier function_call.' }),
    output: Type.Union([Type.String(), Type.Array(InputPart)]),
  }),
  Type.Object(
    {
      type: Type.Literal('reasoning'),
      id: Type.Optional(Type.String()),
      summary: Type.Optional(
        Type.Array(Type.Object({ type: Type.Literal('summary_text'), text: Type.String() }), {
          description: 'Joined: the turn’s reasoning text.',
        }),
      ),
      content: Type.Optional(
        Type.Array(Type.Object({ type: Type.Literal('reasoning_text'), text: Type.String() }), {
          description: 'Read as the summary when the item has none.',
        }),
      ),
      encrypted_content: Type.Optional(
        Type.Union([Type.String(), Type.Null()], {
          description:
            'As an earlier output gave it: a signed reasoning block, sent back to the model unchanged (400 if ' +
            'altered). A value of another server (OpenAI’s) is ignored (X-Service-Ignored-Params).',
        }),
      ),
    },
    {
      description:
        'Reasoning of an earlier output, sent back before the turn’s message and function calls, as they came.',
    },
  ),
]);

export const ResponsesRequest = open(
  {
    model: Type.String({ minLength: 1 }),
    input: Type.Union([Type.String(), Type.Array(InputItem)], {
      description: 'The whole conversation (no stored state).',
    }),
    instructions: Type.String({ description: 'The leading system message.' }),
    max_output_tokens: Type.Integer(),
    temperature: Sampling('Ignored when the model does not list it.'),
    top_p: Sampling('Ignored when the model does not list it.'),
    tools: Type.Array(
      Type.Object({
        type: Type.Literal('function'),
        name: Type.String(),
        description: Type.Optional(Type.String()),
        parameters: Type.Optional(JsonObject),
        strict: Type.Optional(Type.Boolean()),
      }),
      { description: 'Function tools only; hosted tools are 400 unsupported_parameter.' },
    ),
    tool_choice: Type.Union([
      Type.Union([Type.Literal('auto'), Type.Literal('none'), Type.Literal('required')]),
      Type.Object({ type: Type.Literal('function'), name: Type.String() }),
    ]),
    parallel_tool_calls: Type.Boolean(),
    text: Type.Object({
      format: Type.Optional(
        Type.Object(
          {
            type: Type.Union([
              Type.Literal('text'),
              Type.Literal('json_object'),
              Type.Literal('json_schema'),
            ]),
          },
          { description: 'json_schema carries `name`, `schema`, `strict` beside `type`.' },
        ),
      ),
    }),
    reasoning: Type.Object(
      { effort: Type.Optional(Type.String()), enabled: Type.Optional(Type.Boolean()) },
      {
        description:
          '`effort` is reasoning_effort (`enabled: false`: none); `summary` and other keys ignored.',
      },
    ),
    stream: Type.Boolean(),
    user: Ignored(),
    metadata: Ignored(),
    store: Ignored(),
    include: Ignored(),
  },
  ['model', 'input'],
  'Responses request. Platform fields ignored: `user`, `metadata`, `store`, `include`. `previous_response_id` ' +
    'is 400 unsupported_parameter: send the full history in `input`, function results as ' +
    '`function_call_output` items with the matching `call_id`.',
);

const ImageSource = Type.Union([
  Type.Object({ type: Type.Literal('base64'), media_type: Type.String(), data: Type.String() }),
  Type.Object({ type: Type.Literal('url'), url: Type.String() }),
]);
const TextBlock = Type.Object({ type: Type.Literal('text'), text: Type.String() });
const ImageBlock = Type.Object({ type: Type.Literal('image'), source: ImageSource });
const ContentBlock = Type.Union([
  TextBlock,
  ImageBlock,
  Type.Object({ type: Type.Literal('tool_use'), id: Type.String(), name: Type.String(), input: JsonObject }),
  Type.Object({
    type: Type.Literal('tool_result'),
    tool_use_id: Type.String({ description: 'The id of an earlier tool_use.' }),
    content: Type.Optional(Type.Union([Type.String(), Type.Array(Type.Union([TextBlock, ImageBlock]))])),
  }),
  Type.Object(
    {
      type: Type.Literal('thinking'),
      thinking: Type.String(),
      signature: Type.String({
        description: 'Empty for reasoning nobody signed (a model other than Claude): kept as text only.',
      }),
    },
    { description: 'Assistant turns: sent back unchanged, in order (Claude checks the signature).' },
  ),
  Type.Object(
    { type: Type.Literal('redacted_thinking'), data: Type.String({ minLength: 1 }) },
    { description: 'Assistant turns: sent back unchanged.' },
  ),
]);

export const MessagesRequest = open(
  {
    model: Type.String({ minLength: 1 }),
    max_tokens: Type.Integer(),
    messages: Type.Array(
      Type.Object({
        role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]),
        content: Type.Union([Type.String(), Type.Array(ContentBlock)]),
      }),
    ),
    system: Type.Union([Type.String(), Type.Array(TextBlock)]),
    temperature: Sampling('Ignored when the model does not list it.'),
    top_p: Sampling('Ignored when the model does not list it.'),
    top_k: Sampling('Ignored when the model does not list it.'),
    stop_sequences: Type.Array(Type.String()),
    tools: Type.Array(
      Type.Object({
        type: Type.Optional(Type.Literal('custom')),
        name: Type.String(),
        description: Type.Optional(Type.String()),
        input_schema: JsonObject,
      }),
      { description: 'Custom tools only; server tools are 400 unsupported_parameter.' },
    ),
    tool_choice: Type.Object({
      type: Type.Union(['auto', 'any', 'tool', 'none'].map((t) => Type.Literal(t))),
      name: Type.Optional(Type.String({ description: 'With type tool.' })),
      disable_parallel_tool_use: Type.Optional(Type.Boolean()),
    }),
    stream: Type.Boolean(),
    metadata: Ignored(),
    thinking: Ignored(
      'Accepted and ignored: a token budget has no canonical level (X-Service-Ignored-Params).',
    ),
  },
  ['model', 'max_tokens', 'messages'],
  'Messages request. Platform field ignored: `metadata`; `thinking` is ignored too. Documents, file sources ' +
    'and server-tool blocks are 400 unsupported_parameter.',
);

const Part = Type.Object(
  {
    text: Type.Optional(Type.String()),
    thought: Type.Optional(
      Type.Boolean({
        description: 'Model turns: the text is reasoning (kept as the turn’s reasoning text).',
      }),
    ),
    thoughtSignature: Type.Optional(
      Type.String({
        description:
          'Model turns, as an answer gave it: a signed reasoning block, sent back to the model unchanged (400 if ' +
          'altered). A signature of another server (Gemini’s) is ignored (X-Service-Ignored-Params).',
      }),
    ),
    inlineData: Type.Optional(
      Type.Object({ mimeType: Type.String(), data: Type.String({ description: 'Base64.' }) }),
    ),
    fileData: Type.Optional(
      Type.Object({
        mimeType: Type.Optional(Type.String()),
        fileUri: Type.String({ description: 'https only.' }),
      }),
    ),
    functionCall: Type.Optional(
      Type.Object({ id: Type.Optional(Type.String()), name: Type.String(), args: Type.Optional(JsonObject) }),
    ),
    functionResponse: Type.Optional(
      Type.Object({ id: Type.Optional(Type.String()), name: Type.String(), response: JsonObject }),
    ),
  },
  { description: 'One data field per part. Images: JPEG, PNG, WebP, GIF.' },
);

export const GenerateContentRequest = open(
  {
    contents: Type.Array(
      Type.Object({
        role: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('model')])),
        parts: Type.Array(Part, { minItems: 1 }),
      }),
      { minItems: 1, description: 'Roles alternate between user and model (an absent role is user).' },
    ),
    systemInstruction: Type.Object({ role: Type.Optional(Type.String()), parts: Type.Array(Part) }),
    tools: Type.Array(Type.Object({ functionDeclarations: Type.Optional(Type.Array(JsonObject)) }), {
      description: 'functionDeclarations only; server-side tools (googleSearch, codeExecution, ...) are 400.',
    }),
    toolConfig: Type.Object({
      functionCallingConfig: Type.Optional(
        Type.Object({
          mode: Type.Optional(Type.Union(['AUTO', 'ANY', 'NONE'].map((m) => Type.Literal(m)))),
          allowedFunctionNames: Type.Optional(Type.Array(Type.String())),
        }),
      ),
    }),
    generationConfig: Type.Object(
      {
        maxOutputTokens: Type.Optional(Type.Integer()),
        temperature: Type.Optional(Type.Number()),
        topP: Type.Optional(Type.Number()),
        topK: Type.Optional(Type.Number()),
        presencePenalty: Type.Optional(Type.Number()),
        frequencyPenalty: Type.Optional(Type.Number()),
        stopSequences: Type.Optional(Type.Array(Type.String())),
        responseMimeType: Type.Optional(Type.String({ description: 'application/json or text/plain.' })),
        responseSchema: Type.Optional(JsonObject),
        responseJsonSchema: Type.Optional(JsonObject),
        thinkingConfig: Type.Optional(
          Type.Object({
            thinkingBudget: Type.Optional(Type.Integer({ minimum: -1 })),
            thinkingLevel: Type.Optional(Type.String()),
            includeThoughts: Type.Optional(Type.Boolean()),
          }),
        ),
        candidateCount: Type.Optional(Type.Integer({ description: '1 only (ignored).' })),
        responseModalities: Type.Optional(
          Type.Array(Type.String(), { description: '["TEXT"] only (ignored).' }),
        ),
      },
      { additionalProperties: true, description: 'Other fields (`seed`, `responseLogprobs`, ...) are 400.' },
    ),
    safetySettings: Ignored('Accepted with no effect (X-Service-Ignored-Params).'),
    reasoning: Type.Object(
      { effort: Type.Optional(Type.String()), enabled: Type.Optional(Type.Boolean()) },
      { description: 'Aggregator form of the reasoning level.' },
    ),
  },
  ['contents'],
  'Generate-content request. The model is in the URL, never the body. Field names are read in camelCase or ' +
    'snake_case. `cachedContent` and server-side tools are 400 unsupported_parameter; `safetySettings` has ' +
    'no effect.',
);

export const VideoRequest = open(
  {
    model: Type.String({ minLength: 1, description: 'A video model.' }),
    prompt: Type.String({ minLength: 1 }),
    seconds: Type.Union([Type.String({ pattern: '^[0-9]{1,4}$' }), Type.Integer()], {
      description: 'The model’s `duration_seconds`.',
    }),
    size: Type.String({ description: 'The model’s `resolution`, e.g. `1280x720`.' }),
  },
  ['model', 'prompt'],
  'Video request (OpenAI’s shape). The model’s inputSchema then accepts or refuses the values. Any other field ' +
    '(`input_reference`, a file part) is 400 unsupported_parameter.',
);
