import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { DomainError, lazyField } from '@gen/core';
import { isAvailable, type AvailabilitySources } from '../domain/availability';
import { fingerprintOfSorted } from '../domain/sorted-json';
import type { Catalog, LoadedModel } from '../domain/catalog';
import { MODALITIES, type Modality } from '../domain/model';
import { groupPrices, type ModelPrices } from '../domain/pricing';
import { toModelRecord, toOpenAiModel, type ModelRecord, type OpenAiModelList } from '../http/model.dto';
import { validateModelInput, type ValidateInputOptions } from '../domain/validate-input';

export const CATALOG = Symbol('CATALOG');
export const AVAILABILITY_SOURCES = Symbol('AVAILABILITY_SOURCES');

/** Spec, Limits: model `search` is at most 128 characters. */
export const MAX_SEARCH_LENGTH = 128;

export interface ModelListFilters {
  readonly modality?: string;
  /** Exact creator id (first segment of the model id). */
  readonly provider?: string;
  /** Exact task. */
  readonly task?: string;
  /** Case-insensitive substring of id, name, description or an alias; at most 128 characters. */
  readonly search?: string;
  readonly includeSchema?: boolean;
  readonly includeExamples?: boolean;
  /** Also list disabled models (the native list shows enabled models only). */
  readonly includeDisabled?: boolean;
}

/** The account's price multiplier: an exact decimal ("0.85") or 1e-9 units as accounts store it. */
export interface PriceContext {
  readonly multiplier?: string | bigint;
}

export interface ValidatedInput {
  /** The exact catalog id (an alias resolved). */
  readonly model: string;
  /** Defaults applied, keys sorted. */
  readonly input: Record<string, unknown>;
  /** sha256 of the sorted JSON of {model, input}: for idempotency records and quotes. */
  readonly fingerprint: string;
}

/** The catalog's read side and the one model-input validator, over the catalog loaded at start. */
@Injectable()
export class CatalogService {
  constructor(
    @Inject(CATALOG) private readonly catalog: Catalog,
    @Inject(AVAILABILITY_SOURCES) private readonly sources: AvailabilitySources,
  ) {}

  /** Model records matching the filters, in catalog order, priced for the account. */
  list(filters: ModelListFilters = {}, context: PriceContext = {}): ModelRecord[] {
    const matches = this.matching(filters);
    return matches.map((model) =>
      toModelRecord(model, {
        prices: this.prices(model, context),
        available: isAvailable(model, this.sources),
        includeSchema: filters.includeSchema ?? false,
        includeExamples: filters.includeExamples ?? false,
      }),
    );
  }

  /** The complete record of one model (inputSchema and examples included), by exact id or alias. */
  get(idOrAlias: string, context: PriceContext = {}): ModelRecord {
    const model = this.resolve(idOrAlias);
    return toModelRecord(model, {
      prices: this.prices(model, context),
      available: isAvailable(model, this.sources),
      includeSchema: true,
      includeExamples: true,
    });
  }

  /** The loaded model for an exact id or alias; 404 (`model.not_found`) when there is none. */
  resolve(idOrAlias: string): LoadedModel {
    const model = this.catalog.find(idOrAlias);
    if (!model) throw new DomainError(BusinessCode.NotFound, 'model.not_found', { model: idOrAlias });
    return model;
  }

  /** The loaded model of an exact id or alias, or undefined. */
  find(idOrAlias: string): LoadedModel | undefined {
    return this.catalog.find(idOrAlias);
  }

  isAvailable(model: LoadedModel): boolean {
    return isAvailable(model, this.sources);
  }

  /** True when the model is unavailable only because the circuits of its upstreams are open: a passing state. */
  isTrippedOnly(model: LoadedModel): boolean {
    return (
      !isAvailable(model, this.sources) && isAvailable(model, { ...this.sources, circuitOpen: undefined })
    );
  }

  /** The OpenAI-style list (`GET /v1/models`): enabled models, optionally of one modality, no prices. */
  openAiList(filters: Pick<ModelListFilters, 'modality'> = {}): OpenAiModelList {
    return {
      object: 'list',
      data: this.matching(filters).map((m) => toOpenAiModel(m, isAvailable(m, this.sources))),
    };
  }

  /** Prices of a model for a multiplier (default 1: standard prices). */
  prices(model: LoadedModel, context: PriceContext = {}): ModelPrices {
    return groupPrices(model.pricing, context.multiplier ?? 1_000_000_000n);
  }

  /**
   * Validates and normalizes a task input for a model (id or alias): see `validateModelInput`.
   * Throws 404 for an unknown model, 400 naming the field for a bad input.
   */
  validateInput(idOrAlias: string, input: unknown, options: ValidateInputOptions = {}): ValidatedInput {
    const model = this.resolve(idOrAlias);
    const normalized = validateModelInput(model, input, options);
    // Read only with an Idempotency-Key or a quote: computed then (sorted JSON and SHA-256).
    return lazyField({ model: model.id, input: normalized }, 'fingerprint', () =>
      fingerprintOfSorted(model.id, normalized),
    );
  }

  private matching(filters: ModelListFilters): LoadedModel[] {
    if (filters.modality !== undefined && !MODALITIES.includes(filters.modality as Modality)) {
      throw new DomainError(BusinessCode.InvalidRequest, 'request.invalid_field', { field: 'modality' });
    }
    if (filters.search !== undefined && [...filters.search].length > MAX_SEARCH_LENGTH) {
      throw new DomainError(BusinessCode.InvalidRequest, 'model.search_too_long', { max: MAX_SEARCH_LENGTH });
    }
    const search = filters.search?.toLowerCase();
    return this.catalog.models.filter(
      (m) =>
        (filters.includeDisabled || m.enabled) &&
        (filters.modality === undefined || m.modality === filters.modality) &&
        (filters.provider === undefined || m.provider === filters.provider) &&
        (filters.task === undefined || m.task === filters.task) &&
        (search === undefined ||
          [m.id, m.name, m.description, ...m.aliases].some((text) => text.toLowerCase().includes(search))),
    );
  }
}
