import { CHAT_SAMPLING_FIELDS, type MediaField } from '@gen/contracts';
import type { Pricing } from './pricing';

export const MODALITIES = ['image', 'video', 'audio', 'text'] as const;
export type Modality = (typeof MODALITIES)[number];

/** The tasks each modality may declare. A text model is always a chat model. */
export const TASKS_BY_MODALITY: Readonly<Record<Modality, readonly string[]>> = {
  image: ['text-to-image', 'image-to-image', 'image-edit', 'image-upscale'],
  video: ['text-to-video', 'image-to-video', 'video-to-video'],
  audio: ['text-to-speech', 'text-to-audio', 'speech-to-text', 'text-to-music'],
  text: ['chat'],
};

/** Reasoning levels in increasing order (the order "nearest level" adjustments use). */
export const REASONING_LEVELS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type ReasoningLevel = (typeof REASONING_LEVELS)[number];

/** Sampling fields a text model may accept, each with its bounds (spec: compatibility field handling). */
export const SAMPLING_PARAMETERS = CHAT_SAMPLING_FIELDS;
export type SamplingParameter = (typeof SAMPLING_PARAMETERS)[number];
/** Integer-valued sampling fields; the others are numbers. */
export const INTEGER_PARAMETERS: ReadonlySet<SamplingParameter> = new Set(['top_k']);

export const TOOL_CHOICES = ['auto', 'none', 'required', 'function'] as const;
export const RESPONSE_FORMATS = ['text', 'json_object', 'json_schema'] as const;

export interface ParameterBound {
  readonly minimum: number;
  readonly maximum: number;
  readonly default?: number;
}

/** What a text model accepts, beyond its prices. */
export interface TextCapabilities {
  readonly contextLength: number;
  readonly maxOutputTokens: number;
  /** `max_tokens` when a request omits it; the hold covers it (spec: Limits, text request hold). */
  readonly defaultMaxTokens: number;
  readonly parameters: Readonly<Partial<Record<SamplingParameter, ParameterBound>>>;
  readonly reasoningLevels: readonly ReasoningLevel[];
  /** 0: the model takes no stop sequences. */
  readonly maxStopSequences: number;
  readonly tools: boolean;
  /** The `tool_choice` forms accepted; absent means all of them when tools are accepted. */
  readonly toolChoice?: readonly (typeof TOOL_CHOICES)[number][];
  readonly images: boolean;
  readonly responseFormats: readonly (typeof RESPONSE_FORMATS)[number][];
}

/** How the runner reaches the model: adapter, upstream model id, settings and the credentials it needs. */
export interface ProviderBinding {
  readonly adapter: string;
  readonly upstreamModel: string;
  /** Names of environment variables (or secrets) the adapter needs; the model is unavailable without them. */
  readonly credentials: readonly string[];
  readonly settings: Readonly<Record<string, unknown>>;
}

/** A quantity of a usage bound: a fixed number, or an integer input field times a factor. */
export type BoundQuantity = number | { readonly input: string; readonly times?: number };

/** The most one task of an upstream media model can use, per billable quantity (see usage-bound.ts). */
export interface UsageBound {
  readonly images?: BoundQuantity;
  readonly megapixels?: BoundQuantity;
  readonly seconds?: BoundQuantity;
}

export interface ModelExample {
  readonly title?: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** One model of the loaded catalog. `available` is not stored: see `availability.ts`. */
export interface CatalogModel {
  readonly id: string;
  /** The creator: the first segment of the id (`owned_by`, the `provider` filter). */
  readonly provider: string;
  readonly name: string;
  readonly description: string;
  readonly enabled: boolean;
  readonly modality: Modality;
  readonly task: string;
  /** Unix seconds of the model's release date (`created` of the OpenAI list). */
  readonly created: number;
  readonly aliases: readonly string[];
  readonly binding: ProviderBinding;
  /** Bindings used in order while the circuit of the ones before is open. */
  readonly fallbacks: readonly ProviderBinding[];
  /** Upstream media models: the most one task can use (the hold). */
  readonly usageBound?: UsageBound;
  readonly pricing: Pricing;
  /** The JSON Schema of `input`: written in the file for media models, built from `text` for text models. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** The input fields that take a media file (`"format": "media-uri"`), in schema order. */
  readonly mediaFields: readonly MediaField[];
  readonly examples: readonly ModelExample[];
  readonly text?: TextCapabilities;
  /** Request fields a chat model accepts besides `messages` (the OpenAI list's `supported_parameters`). */
  readonly supportedParameters?: readonly string[];
}
