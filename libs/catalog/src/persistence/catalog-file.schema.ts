import { Type, type Static } from '@sinclair/typebox';
import { USD_AMOUNT_PATTERN } from '@gen/core';
import {
  MODALITIES,
  REASONING_LEVELS,
  RESPONSE_FORMATS,
  SAMPLING_PARAMETERS,
  TOOL_CHOICES,
  type Modality,
} from '../domain/model';
import { MEDIA_PRICE_KEYS, TEXT_PRICE_KEYS } from '../domain/pricing';

/**
 * The catalog file operators edit (JSON). `x-expected` says, in the load error, what a field must be.
 * Rules a schema cannot say (unique ids and aliases, prices per modality, examples valid against the
 * model's inputSchema, known adapters) are checked by `load-catalog.ts`.
 */
const SEGMENT = '[A-Za-z0-9][A-Za-z0-9._-]*';
export const MODEL_ID_PATTERN = `^${SEGMENT}(/${SEGMENT})+$`;
export const ALIAS_PATTERN = `^${SEGMENT}(/${SEGMENT})*$`;

const oneOf = <T extends string>(values: readonly T[]) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], 'x-expected': `one of ${values.join(', ')}` });

const UsdPrice = Type.String({
  pattern: USD_AMOUNT_PATTERN,
  'x-expected': 'a USD amount (a decimal string such as "0.002", at most 9 decimals)',
});

const Bound = Type.Object(
  { minimum: Type.Number(), maximum: Type.Number(), default: Type.Optional(Type.Number()) },
  { additionalProperties: false },
);

const Pricing = Type.Object(
  Object.fromEntries([...MEDIA_PRICE_KEYS, ...TEXT_PRICE_KEYS].map((k) => [k, Type.Optional(UsdPrice)])),
  { additionalProperties: false },
);

const Binding = Type.Object(
  {
    adapter: Type.String({ minLength: 1 }),
    upstreamModel: Type.String({ minLength: 1, maxLength: 256 }),
    credentials: Type.Optional(
      Type.Array(
        Type.String({ pattern: '^[A-Z][A-Z0-9_]*$', 'x-expected': 'an environment variable name' }),
        { uniqueItems: true },
      ),
    ),
    settings: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: false },
);

/** A quantity of a usage bound: a number, or an integer field of the validated input (times a factor). */
const BoundQuantity = Type.Union(
  [
    Type.Number({ exclusiveMinimum: 0 }),
    Type.Object(
      {
        input: Type.String({ minLength: 1, 'x-expected': 'the name of an integer input field' }),
        times: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
      },
      { additionalProperties: false },
    ),
  ],
  { 'x-expected': 'a positive number, or {"input": "<field>", "times": <number>}' },
);

/**
 * The most one task of an upstream media model can use: the hold is this usage at the account's prices (the
 * offline models compute theirs from the input). One quantity per price the model has.
 */
const UsageBound = Type.Object(
  {
    images: Type.Optional(BoundQuantity),
    megapixels: Type.Optional(BoundQuantity),
    seconds: Type.Optional(BoundQuantity),
  },
  { additionalProperties: false },
);

const Text = Type.Object(
  {
    contextLength: Type.Integer({ minimum: 1 }),
    maxOutputTokens: Type.Integer({ minimum: 1 }),
    defaultMaxTokens: Type.Integer({ minimum: 1 }),
    parameters: Type.Object(Object.fromEntries(SAMPLING_PARAMETERS.map((p) => [p, Type.Optional(Bound)])), {
      additionalProperties: false,
    }),
    reasoningLevels: Type.Array(oneOf(REASONING_LEVELS), { uniqueItems: true }),
    maxStopSequences: Type.Integer({ minimum: 0, maximum: 64 }),
    tools: Type.Boolean(),
    toolChoice: Type.Optional(Type.Array(oneOf(TOOL_CHOICES), { uniqueItems: true, minItems: 1 })),
    images: Type.Boolean(),
    responseFormats: Type.Array(oneOf(RESPONSE_FORMATS), { uniqueItems: true }),
  },
  { additionalProperties: false },
);

const AnyObject = () => Type.Unsafe<Record<string, unknown>>({ type: 'object' });

export const CatalogEntry = Type.Object(
  {
    id: Type.String({
      pattern: MODEL_ID_PATTERN,
      maxLength: 200,
      'x-expected': 'a model id such as publisher/model (letters, digits, ".", "_", "-" between slashes)',
    }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.String({ maxLength: 2000 }),
    enabled: Type.Boolean(),
    modality: oneOf<Modality>(MODALITIES),
    task: Type.String({ minLength: 1 }),
    created: Type.String({ format: 'date', 'x-expected': 'a date YYYY-MM-DD' }),
    aliases: Type.Optional(
      Type.Array(
        Type.String({
          pattern: ALIAS_PATTERN,
          maxLength: 200,
          'x-expected': 'an alias (letters, digits, ".", "_", "-", segments separated by slashes)',
        }),
        { uniqueItems: true },
      ),
    ),
    provider: Binding,
    /** Bindings used in order while the circuit of the ones before is open. */
    fallbacks: Type.Optional(Type.Array(Binding, { maxItems: 4 })),
    usageBound: Type.Optional(UsageBound),
    pricing: Pricing,
    inputSchema: Type.Optional(AnyObject()),
    text: Type.Optional(Text),
    examples: Type.Array(
      Type.Object(
        { title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), input: AnyObject() },
        { additionalProperties: false },
      ),
      { minItems: 1, 'x-expected': 'a list of at least one example' },
    ),
  },
  { additionalProperties: false },
);
export type CatalogEntry = Static<typeof CatalogEntry>;

export const CatalogFile = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    version: Type.Literal(1, { 'x-expected': 'the number 1' }),
    models: Type.Array(CatalogEntry),
  },
  { additionalProperties: false },
);
export type CatalogFile = Static<typeof CatalogFile>;
