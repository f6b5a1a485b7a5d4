import { INTEGER_PARAMETERS, SAMPLING_PARAMETERS, TOOL_CHOICES, type TextCapabilities } from './model';

type Schema = Record<string, unknown>;

const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const obj = (properties: Schema, required: string[], extra: Schema = {}): Schema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
  ...extra,
});

/** One content part: text always, image_url only on models that accept images. */
function contentPart(images: boolean): Schema {
  const types = images ? ['text', 'image_url'] : ['text'];
  const properties: Schema = { type: str({ enum: types }), text: str() };
  const rules: Schema[] = [
    {
      if: obj({ type: { const: 'text' } }, ['type'], { additionalProperties: true }),
      then: { type: 'object', required: ['text'], properties: { text: str() } },
    },
  ];
  if (images) {
    properties['image_url'] = obj(
      {
        url: str({
          minLength: 1,
          description:
            'A base64 data: URL of a PNG, JPEG, WebP or GIF of at most 10 MiB; an https URL on port 443 without ' +
            'user info, at most 2,048 characters; or the service://files/fil_... URI of a ready image of your ' +
            'account. Anything else is refused before any hold.',
        }),
        detail: str({ enum: ['auto', 'low', 'high'] }),
      },
      ['url'],
    );
    rules.push({
      if: obj({ type: { const: 'image_url' } }, ['type'], { additionalProperties: true }),
      then: { type: 'object', required: ['image_url'], properties: { image_url: properties['image_url'] } },
    });
  }
  // The closed shape first, so that a misspelt field is reported as unknown rather than as a missing one.
  return { type: 'object', allOf: [obj(properties, ['type']), ...rules] };
}

const toolCall = obj(
  {
    id: str({ minLength: 1 }),
    type: str({ enum: ['function'] }),
    function: obj({ name: str({ minLength: 1 }), arguments: str() }, ['name', 'arguments']),
  },
  ['id', 'type', 'function'],
);

/**
 * A signed reasoning block of an earlier answer, sent back unchanged (Anthropic's extended thinking): a thinking
 * block's text with its signature, or a redacted block's data. Closed, and a signature or data is never empty,
 * since the upstream checks it.
 */
const thinkingBlock: Schema = {
  type: 'object',
  // The type first, then one closed shape per type (rather than anyOf), so that an error names the field at fault.
  allOf: [
    { required: ['type'], properties: { type: str({ enum: ['thinking', 'redacted_thinking'] }) } },
    {
      if: { properties: { type: { const: 'thinking' } } },
      then: obj({ type: str(), thinking: str(), signature: str({ minLength: 1 }) }, [
        'type',
        'thinking',
        'signature',
      ]),
      else: obj({ type: str(), data: str({ minLength: 1 }) }, ['type', 'data']),
    },
  ],
};

/** The fields only an assistant message has, whatever the model: an earlier answer's reasoning. */
const ASSISTANT_ONLY = ['reasoning_content', 'thinking_blocks'] as const;

function message(text: TextCapabilities): Schema {
  const properties: Schema = {
    role: str({ enum: ['system', 'developer', 'user', 'assistant', 'tool'] }),
    content: {
      anyOf: [str(), { type: 'array', items: contentPart(text.images) }, { type: 'null' }],
    },
    name: str({ minLength: 1, maxLength: 64 }),
  };
  if (text.tools) {
    properties['tool_call_id'] = str({ minLength: 1 });
    properties['tool_calls'] = { type: 'array', items: toolCall };
  }
  // On every model: a conversation may change models, and an upstream that does not take reasoning back ignores it.
  properties['reasoning_content'] = str();
  properties['thinking_blocks'] = { type: 'array', items: thinkingBlock };
  // On any other role they are unknown fields (a `false` schema, reported as such).
  return obj(properties, ['role', 'content'], {
    if: { type: 'object', required: ['role'], properties: { role: { const: 'assistant' } } },
    else: { properties: Object.fromEntries(ASSISTANT_ONLY.map((name) => [name, false])) },
  });
}

function toolChoice(allowed: readonly (typeof TOOL_CHOICES)[number][]): Schema {
  const words = allowed.filter((c) => c !== 'function');
  const forms: Schema[] = [];
  if (words.length) forms.push(str({ enum: words }));
  if (allowed.includes('function')) {
    forms.push(
      obj({ type: str({ enum: ['function'] }), function: obj({ name: str({ minLength: 1 }) }, ['name']) }, [
        'type',
        'function',
      ]),
    );
  }
  return forms.length === 1 ? forms[0]! : { anyOf: forms };
}

/**
 * The canonical chat request a text model accepts (the `input` of a text task, and what the compatibility
 * protocols translate to), built from the model's declared capabilities so that `inputSchema` and
 * `supported_parameters` can never disagree with them.
 */
export function chatInputSchema(text: TextCapabilities): Schema {
  const properties: Schema = {
    messages: { type: 'array', minItems: 1, items: message(text) },
    max_tokens: {
      type: 'integer',
      minimum: 1,
      maximum: text.maxOutputTokens,
      default: text.defaultMaxTokens,
    },
  };
  for (const name of SAMPLING_PARAMETERS) {
    const bound = text.parameters[name];
    if (!bound) continue;
    properties[name] = {
      type: INTEGER_PARAMETERS.has(name) ? 'integer' : 'number',
      minimum: bound.minimum,
      maximum: bound.maximum,
      ...(bound.default === undefined ? {} : { default: bound.default }),
    };
  }
  if (text.maxStopSequences > 0) {
    properties['stop'] = {
      anyOf: [str(), { type: 'array', maxItems: text.maxStopSequences, items: str() }],
    };
  }
  if (text.reasoningLevels.length) properties['reasoning_effort'] = str({ enum: [...text.reasoningLevels] });
  if (text.tools) {
    properties['tools'] = {
      type: 'array',
      maxItems: 128,
      items: obj(
        {
          type: str({ enum: ['function'] }),
          function: obj(
            {
              name: str({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
              description: str(),
              parameters: { type: 'object' },
              strict: { type: 'boolean' },
            },
            ['name'],
          ),
        },
        ['type', 'function'],
      ),
    };
    properties['tool_choice'] = toolChoice(text.toolChoice ?? TOOL_CHOICES);
    properties['parallel_tool_calls'] = { type: 'boolean' };
  }
  if (text.responseFormats.length) {
    const format: Schema = { type: str({ enum: [...text.responseFormats] }) };
    if (text.responseFormats.includes('json_schema')) format['json_schema'] = { type: 'object' };
    properties['response_format'] = obj(format, ['type']);
  }
  return obj(properties, ['messages']);
}

/** `supported_parameters`: the request fields of the schema other than `messages`, in schema order. */
export function supportedParametersOf(schema: Schema): string[] {
  return Object.keys(schema['properties'] as Schema).filter((name) => name !== 'messages');
}
