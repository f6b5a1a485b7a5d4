import { Type, type Static } from '@sinclair/typebox';
import { UsdDecimal } from '@gen/core';
import type { CatalogModel } from '../domain/model';
import { MEDIA_PRICE_KEYS, TEXT_PRICE_KEYS, type ModelPrices } from '../domain/pricing';

const Bound = Type.Object({
  minimum: Type.Number(),
  maximum: Type.Number(),
  default: Type.Optional(Type.Number()),
});

/** Prices for the calling account (group multiplier applied), exact decimal strings. */
export const ModelPricing = Type.Object(
  {
    currency: Type.Literal('USD'),
    ...Object.fromEntries(
      [...MEDIA_PRICE_KEYS, ...TEXT_PRICE_KEYS].map((k) => [k, Type.Optional(UsdDecimal)]),
    ),
  },
  { description: 'USD per unit: image, second, megapixel; per million tokens for text models.' },
);

export const TextModelDetails = Type.Object({
  contextLength: Type.Integer(),
  maxOutputTokens: Type.Integer(),
  defaultMaxTokens: Type.Integer({ description: 'max_tokens when a request omits it (the hold covers it).' }),
  supportedParameters: Type.Array(Type.String()),
  parameters: Type.Record(Type.String(), Bound),
  reasoningLevels: Type.Array(Type.String()),
  maxStopSequences: Type.Integer(),
  tools: Type.Boolean(),
  toolChoice: Type.Optional(Type.Array(Type.String())),
  images: Type.Boolean(),
  responseFormats: Type.Array(Type.String()),
});

/** The model record of the spec (Model record), plus the fields the spec leaves to us. */
export const ModelRecord = Type.Object({
  model: Type.String({ description: 'Exact id for `model` in task requests; may contain slashes.' }),
  name: Type.String(),
  description: Type.String(),
  provider: Type.String({ description: 'The creator (first segment of the id); the `provider` filter.' }),
  enabled: Type.Boolean(),
  available: Type.Boolean(),
  modality: Type.String(),
  task: Type.String(),
  aliases: Type.Array(Type.String()),
  pricing: ModelPricing,
  text: Type.Optional(TextModelDetails),
  inputSchema: Type.Optional(Type.Object({}, { additionalProperties: true })),
  examples: Type.Optional(
    Type.Array(
      Type.Object({
        title: Type.Optional(Type.String()),
        input: Type.Object({}, { additionalProperties: true }),
      }),
    ),
  ),
});
export type ModelRecord = Static<typeof ModelRecord>;

export interface RecordOptions {
  readonly prices: ModelPrices;
  readonly available: boolean;
  readonly includeSchema: boolean;
  readonly includeExamples: boolean;
}

export function toModelRecord(model: CatalogModel, options: RecordOptions): ModelRecord {
  return {
    model: model.id,
    name: model.name,
    description: model.description,
    provider: model.provider,
    enabled: model.enabled,
    available: options.available,
    modality: model.modality,
    task: model.task,
    aliases: [...model.aliases],
    pricing: options.prices,
    ...(model.text
      ? {
          text: {
            contextLength: model.text.contextLength,
            maxOutputTokens: model.text.maxOutputTokens,
            defaultMaxTokens: model.text.defaultMaxTokens,
            supportedParameters: [...(model.supportedParameters ?? [])],
            parameters: { ...model.text.parameters },
            reasoningLevels: [...model.text.reasoningLevels],
            maxStopSequences: model.text.maxStopSequences,
            tools: model.text.tools,
            ...(model.text.toolChoice ? { toolChoice: [...model.text.toolChoice] } : {}),
            images: model.text.images,
            responseFormats: [...model.text.responseFormats],
          },
        }
      : {}),
    ...(options.includeSchema ? { inputSchema: model.inputSchema } : {}),
    ...(options.includeExamples ? { examples: model.examples.map((e) => ({ ...e })) } : {}),
  };
}

/** An item of `GET /v1/models` (spec: OpenAI-style model list item). No prices. */
export const OpenAiModel = Type.Object({
  id: Type.String(),
  object: Type.Literal('model'),
  created: Type.Integer({ description: 'Unix seconds.' }),
  owned_by: Type.String(),
  modality: Type.String(),
  task: Type.String(),
  available: Type.Boolean({
    description:
      'Whether the model can be called now (credentials configured, upstream circuit closed); follows a tripped upstream within about a second. An extension of the OpenAI list.',
  }),
  context_length: Type.Optional(Type.Integer()),
  max_output_tokens: Type.Optional(Type.Integer()),
  supported_parameters: Type.Optional(Type.Array(Type.String())),
});
export type OpenAiModel = Static<typeof OpenAiModel>;

export const OpenAiModelList = Type.Object({ object: Type.Literal('list'), data: Type.Array(OpenAiModel) });
export type OpenAiModelList = Static<typeof OpenAiModelList>;

export function toOpenAiModel(model: CatalogModel, available: boolean): OpenAiModel {
  return {
    id: model.id,
    object: 'model',
    created: model.created,
    owned_by: model.provider,
    modality: model.modality,
    task: model.task,
    available,
    ...(model.text
      ? {
          context_length: model.text.contextLength,
          max_output_tokens: model.text.maxOutputTokens,
          supported_parameters: [...(model.supportedParameters ?? [])],
        }
      : {}),
  };
}
