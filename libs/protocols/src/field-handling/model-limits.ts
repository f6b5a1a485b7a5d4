import { CHAT_SAMPLING_FIELDS } from '@gen/contracts';

/** Reasoning levels in increasing order: "nearest level" is measured along this list (the catalog's order). */
export const REASONING_LEVEL_ORDER = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

/** The sampling fields a model may list, each with its bounds (the canonical request's). */
export const SAMPLING_FIELDS = CHAT_SAMPLING_FIELDS;
export type SamplingField = (typeof SAMPLING_FIELDS)[number];

/**
 * What the field rules need to know of a text model: the shape of the catalog's `TextCapabilities`, declared
 * here so that the protocols library does not depend on the catalog (a catalog model's `text` is assignable).
 */
export interface ModelLimits {
  readonly maxOutputTokens: number;
  readonly parameters: Readonly<
    Partial<Record<SamplingField, { readonly minimum: number; readonly maximum: number }>>
  >;
  /** A subset of `REASONING_LEVEL_ORDER`; empty: the model takes no `reasoning_effort`. */
  readonly reasoningLevels: readonly string[];
  /** 0: the model takes no stop sequences. */
  readonly maxStopSequences: number;
  readonly tools: boolean;
  /** The `tool_choice` forms accepted (`function` is the named-tool object); absent: all of them. */
  readonly toolChoice?: readonly ('auto' | 'none' | 'required' | 'function')[];
  readonly images: boolean;
  readonly responseFormats: readonly ('text' | 'json_object' | 'json_schema')[];
  /** Canonical fields the model's upstream has no name for: dropped and listed as ignored (absent: none). */
  readonly notSent?: readonly string[];
}
