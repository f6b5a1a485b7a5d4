import { readFileSync } from 'node:fs';
import { ADAPTER_NAMES } from '@gen/providers';
import { createAjv, translate } from '@gen/core';
import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { sortKeysDeep } from '../domain/sorted-json';
import { Catalog, type LoadedModel } from '../domain/catalog';
import { chatInputSchema, supportedParametersOf } from '../domain/chat-input-schema';
import type { ProviderBinding, TextCapabilities, UsageBound } from '../domain/model';
import { inputProblem } from '../domain/input-problem';
import { isMediaUri, mediaFieldsOf } from '../domain/media-fields';
import { MEDIA_KIND_KEYWORD, MEDIA_URI_FORMAT } from '@gen/contracts';
import { CatalogFile, type CatalogEntry } from './catalog-file.schema';
import { CatalogLoadError, describeSchemaError, pointerSegments } from './catalog-load-error';
import { checkEntry } from './entry-rules';

/** Adapters the runner has (libs/providers); a binding to another one refuses the catalog. */
export const KNOWN_ADAPTERS: readonly string[] = ADAPTER_NAMES;

export interface LoadCatalogOptions {
  /** Adapter names a binding may use; defaults to KNOWN_ADAPTERS. */
  readonly adapters?: readonly string[];
}

let fileValidator: ValidateFunction | undefined;
function validateFile(data: unknown): ErrorObject[] | null {
  if (!fileValidator) {
    const ajv = createAjv();
    ajv.addKeyword({ keyword: 'x-expected', schemaType: 'string' });
    fileValidator = ajv.compile(CatalogFile);
  }
  return fileValidator(data) ? null : (fileValidator.errors ?? []);
}

/** Reads, validates and loads the catalog file; any problem throws a CatalogLoadError naming it. */
export function loadCatalogFile(path: string, options: LoadCatalogOptions = {}): Catalog {
  return buildCatalog(readCatalogFile(path), options);
}

/** Reads and parses the catalog file (not yet validated); a problem throws a CatalogLoadError naming it. */
export function readCatalogFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CatalogLoadError(`catalog: cannot read ${path}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CatalogLoadError(`catalog: ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return data;
}

/** Validates a parsed catalog file and builds the catalog, each model's input schema compiled once. */
export function buildCatalog(data: unknown, options: LoadCatalogOptions = {}): Catalog {
  const errors = validateFile(data);
  if (errors) throw fileError(data, errors[0]!);
  const file = data as CatalogFile;
  const adapters = options.adapters ?? KNOWN_ADAPTERS;
  const inputAjv = inputValidatorAjv();
  const firstIndex = new Map<string, number>();
  const models = file.models.map((entry, index) => {
    const earlier = firstIndex.get(entry.id);
    if (earlier !== undefined) {
      throw CatalogLoadError.at(entry.id, 'id', `is used twice (models[${earlier}] and models[${index}])`);
    }
    firstIndex.set(entry.id, index);
    checkEntry(entry, adapters);
    return toModel(entry, inputAjv);
  });
  checkAliases(models);
  return new Catalog(models);
}

/**
 * The ajv that compiles model inputs: media fields are `"format": "media-uri"` (a `service://files/...` URI or
 * an https URL, see media-fields.ts) with `"x-media"` naming the kind, an annotation for ajv.
 */
function inputValidatorAjv(): Ajv {
  const ajv = createAjv({ useDefaults: true });
  ajv.addFormat(MEDIA_URI_FORMAT, { type: 'string', validate: isMediaUri });
  ajv.addKeyword({ keyword: MEDIA_KIND_KEYWORD, schemaType: 'string' });
  return ajv;
}

function fileError(data: unknown, error: ErrorObject): CatalogLoadError {
  const segments = pointerSegments(error.instancePath);
  const { tail, problem } = describeSchemaError(error, CatalogFile);
  const label = (parts: string[]) =>
    [...parts, ...(tail ? [tail] : [])]
      .map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i ? `.${s}` : s))
      .join('');
  if (segments[0] === 'models' && segments[1] !== undefined) {
    const index = Number(segments[1]);
    const id = ((data as { models: { id?: unknown }[] }).models[index] ?? {}).id;
    const field = label(segments.slice(2));
    const validId = typeof id === 'string' && segments[2] !== 'id';
    const where = validId ? `model "${id}"` : `models[${index}]`;
    return new CatalogLoadError(
      `catalog: ${where}: ${field ? `${field} ` : ''}${problem}`,
      validId ? id : undefined,
      field,
    );
  }
  const field = label(segments);
  return new CatalogLoadError(`catalog: ${field ? `${field} ` : 'the file '}${problem}`, undefined, field);
}

function toModel(entry: CatalogEntry, ajv: Ajv): LoadedModel {
  const text = entry.text as TextCapabilities | undefined;
  const inputSchema = text ? chatInputSchema(text) : (entry.inputSchema as Record<string, unknown>);
  let validateInput: ValidateFunction;
  try {
    validateInput = ajv.compile(inputSchema);
  } catch (error) {
    throw CatalogLoadError.at(
      entry.id,
      'inputSchema',
      `is not a valid JSON Schema: ${(error as Error).message}`,
    );
  }
  entry.examples.forEach((example, i) => {
    if (validateInput(sortKeysDeep(example.input))) return;
    const problem = inputProblem(validateInput.errors);
    const reason = translate('en', problem.messageId, { ...problem.params, field: problem.path || 'input' });
    throw CatalogLoadError.at(entry.id, `examples[${i}].input`, `is invalid: ${reason}`);
  });
  return {
    id: entry.id,
    provider: entry.id.split('/')[0]!,
    name: entry.name,
    description: entry.description,
    enabled: entry.enabled,
    modality: entry.modality,
    task: entry.task,
    created: Date.parse(`${entry.created}T00:00:00Z`) / 1000,
    aliases: entry.aliases ?? [],
    binding: toBinding(entry.provider),
    fallbacks: (entry.fallbacks ?? []).map(toBinding),
    ...(entry.usageBound ? { usageBound: entry.usageBound as UsageBound } : {}),
    pricing: entry.pricing,
    inputSchema,
    mediaFields: text ? [] : mediaFieldsOf(inputSchema),
    examples: entry.examples.map((e) => ({ ...e, input: sortKeysDeep(e.input) })),
    ...(text ? { text, supportedParameters: supportedParametersOf(inputSchema) } : {}),
    validateInput,
  };
}

function toBinding(binding: CatalogEntry['provider']): ProviderBinding {
  return {
    adapter: binding.adapter,
    upstreamModel: binding.upstreamModel,
    credentials: binding.credentials ?? [],
    settings: binding.settings ?? {},
  };
}

function checkAliases(models: readonly LoadedModel[]): void {
  const ids = new Set(models.map((m) => m.id));
  const owner = new Map<string, string>();
  for (const model of models) {
    for (const alias of model.aliases) {
      const fail = (problem: string) => CatalogLoadError.at(model.id, 'aliases', `"${alias}" ${problem}`);
      if (alias === model.id) throw fail("is the model's own id");
      if (ids.has(alias)) throw fail('is the id of another model');
      const other = owner.get(alias);
      if (other) throw fail(`is already an alias of model "${other}"`);
      owner.set(alias, model.id);
    }
  }
}
