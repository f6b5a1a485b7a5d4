import type { MediaInputValue } from './media-input.ports';
import type { ExecutionUsage } from './task-events';

/** A task request checked against the catalog: what the tasks domain needs to accept it. */
export interface PreparedTask {
  /** The exact catalog id (an alias resolved). */
  readonly model: string;
  readonly modality: 'image' | 'video' | 'audio' | 'text';
  /** The input with defaults applied, keys sorted. */
  readonly input: Record<string, unknown>;
  /** sha256 hex of the canonical JSON of {model, input}. */
  readonly fingerprint: string;
  /** The customer price of this exact request at the account's prices, USD decimal: the hold. */
  readonly estimate: string;
  /**
   * The media fields the request fills (the inputSchema's `format: media-uri` fields present in `input`), for
   * the check of their `service://` files at acceptance.
   */
  readonly mediaInputs: readonly MediaInputValue[];
}

/** What the compatibility layer needs of a model: its id, modality and, for text models, what they accept. */
export interface ChatModelView {
  readonly id: string;
  readonly modality: 'image' | 'video' | 'audio' | 'text';
  /** Text models: the catalog's `text` block (bounds, reasoning levels, stop sequences, tools, formats). */
  readonly text?: {
    readonly maxOutputTokens: number;
    readonly parameters: Readonly<Record<string, { readonly minimum: number; readonly maximum: number }>>;
    readonly reasoningLevels: readonly string[];
    readonly maxStopSequences: number;
    readonly tools: boolean;
    readonly toolChoice?: readonly ('auto' | 'none' | 'required' | 'function')[];
    readonly images: boolean;
    readonly responseFormats: readonly ('text' | 'json_object' | 'json_schema')[];
    /** Canonical fields the model's upstream has no name for (not sent; listed as ignored). */
    readonly notSent: readonly string[];
  };
}

/**
 * Implemented by the catalog domain; used by the tasks domain. Throws DomainError: 404 for an unknown or
 * disabled model, 400 naming the field for a bad input, 503 when the model is not available.
 */
export interface CatalogPort {
  prepareTask(model: string, input: unknown, priceMultiplier: string): PreparedTask;
  /** The charge of measured usage at the account's prices, USD decimal (rounded half up to 1e-9 USD). */
  chargeFor(model: string, usage: ExecutionUsage, priceMultiplier: string): string;
  /** The exact id of a catalog id or declared alias; null when the catalog does not know it. */
  resolveModelId(idOrAlias: string): string | null;
  /** An enabled model by id or alias, as the compatibility layer sees it; null when there is none. */
  chatModel(idOrAlias: string): ChatModelView | null;
  /** The enabled, available text model whose id is closest to `wanted` (for `model_not_found`); null if none. */
  closestChatModel(wanted: string): string | null;
}
export const CATALOG_PORT = Symbol('CatalogPort');

/**
 * The catalog document as its owner loaded it (the parsed catalog file), for apps that build their catalog from
 * the catalog app's rather than from a file of their own (distributed mode: one file, one owner). Implemented by
 * the catalog domain.
 */
export interface CatalogDocumentPort {
  document(): Promise<unknown>;
}
export const CATALOG_DOCUMENT = Symbol('CatalogDocument');

/**
 * The catalog's model ids, for a domain that must name a model without building the catalog itself: billing
 * checks the model of a grant with it. Implemented by the catalog domain; in a fleet the catalog app answers it
 * over the service transport (each app owns its own tables, so billing asks, never reads the catalog).
 */
export interface CatalogModelsPort {
  /** The exact id of a catalog id or declared alias (enabled or not); null when the catalog has no such model. */
  modelIdOf(idOrAlias: string): Promise<string | null>;
}
export const CATALOG_MODELS = Symbol('CatalogModels');
