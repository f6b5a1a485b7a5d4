import { MEDIA_PRICE_KEYS, TEXT_PRICE_KEYS, type PriceKey } from '../domain/pricing';
import { SAMPLING_PARAMETERS, TASKS_BY_MODALITY, type TextCapabilities } from '../domain/model';
import { CatalogLoadError } from './catalog-load-error';
import type { CatalogEntry } from './catalog-file.schema';
import { openObjectIn } from './schema-strictness';
import { mediaMarkerProblem } from '../domain/media-fields';

const TEXT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*\/chat$/;

/**
 * The rules of one entry that its schema cannot say: task per modality, the text model's id form and
 * limits, prices per modality, a known adapter and a strict inputSchema. Throws the first broken rule.
 */
export function checkEntry(entry: CatalogEntry, adapters: readonly string[]): void {
  const fail = (field: string, problem: string) => CatalogLoadError.at(entry.id, field, problem);
  if (!adapters.includes(entry.provider.adapter)) {
    throw fail(
      'provider.adapter',
      `"${entry.provider.adapter}" is not a known adapter (known: ${adapters.join(', ')})`,
    );
  }
  (entry.fallbacks ?? []).forEach((fallback, i) => {
    if (!adapters.includes(fallback.adapter)) {
      throw fail(
        `fallbacks[${i}].adapter`,
        `"${fallback.adapter}" is not a known adapter (known: ${adapters.join(', ')})`,
      );
    }
  });
  const tasks = TASKS_BY_MODALITY[entry.modality];
  if (!tasks.includes(entry.task)) {
    throw fail(
      'task',
      `"${entry.task}" is not a task of modality ${entry.modality} (one of ${tasks.join(', ')})`,
    );
  }
  checkPricing(entry, fail);
  if (entry.modality === 'text') {
    if (!TEXT_ID.test(entry.id))
      throw fail('id', 'must have the form <publisher>/<model>/chat for a text model');
    if (entry.inputSchema)
      throw fail('inputSchema', 'must be absent for a text model: it is built from text');
    if (!entry.text) throw fail('text', 'is required for a text model');
    checkText(entry.text as TextCapabilities, fail);
    return;
  }
  if (entry.id.endsWith('/chat')) throw fail('id', 'ends with /chat, which only text models may');
  if (entry.text) throw fail('text', `must be absent for a ${entry.modality} model`);
  if (!entry.inputSchema) throw fail('inputSchema', `is required for a ${entry.modality} model`);
  if (entry.inputSchema['type'] !== 'object') throw fail('inputSchema.type', 'must be "object"');
  const open = openObjectIn(entry.inputSchema);
  if (open) {
    throw fail(
      'inputSchema',
      `must close every object: the schema at ${open} lists properties without "additionalProperties" (set it to false)`,
    );
  }
  const media = mediaMarkerProblem(entry.inputSchema);
  if (media) throw fail(media.field, media.problem);
  checkUsageBound(entry, fail);
}

const BOUND_OF_PRICE = { perImage: 'images', perMegapixel: 'megapixels', perSecond: 'seconds' } as const;

/**
 * An upstream media model states the most one task can use (its hold), one quantity per price; a quantity
 * taken from the input names an integer field of the inputSchema with a maximum, so the hold is bounded.
 * The offline models compute theirs from the input.
 */
function checkUsageBound(
  entry: CatalogEntry,
  fail: (field: string, problem: string) => CatalogLoadError,
): void {
  const bound = entry.usageBound;
  if (entry.provider.adapter === 'offline') {
    if (bound)
      throw fail('usageBound', 'must be absent for an offline model: its usage is computed from the input');
    return;
  }
  if (!bound)
    throw fail('usageBound', `is required for a ${entry.modality} model of an upstream (the hold of a task)`);
  for (const [price, quantity] of Object.entries(BOUND_OF_PRICE)) {
    const given = bound[quantity];
    if (entry.pricing[price as keyof typeof BOUND_OF_PRICE] === undefined) {
      if (given !== undefined)
        throw fail(`usageBound.${quantity}`, `is given but the model has no ${price} price`);
      continue;
    }
    if (given === undefined)
      throw fail(`usageBound.${quantity}`, `is required: the model has a ${price} price`);
    if (typeof given === 'number') continue;
    const properties = (entry.inputSchema?.['properties'] ?? {}) as Record<string, Record<string, unknown>>;
    const field = properties[given.input];
    if (field?.['type'] !== 'integer' || typeof field['maximum'] !== 'number') {
      throw fail(
        `usageBound.${quantity}.input`,
        `"${given.input}" must be an integer field of inputSchema with a maximum`,
      );
    }
  }
}

function checkPricing(entry: CatalogEntry, fail: (field: string, problem: string) => CatalogLoadError): void {
  const given = Object.keys(entry.pricing) as PriceKey[];
  const text = entry.modality === 'text';
  const own: readonly PriceKey[] = text ? TEXT_PRICE_KEYS : MEDIA_PRICE_KEYS;
  const stray = given.find((k) => !own.includes(k));
  if (stray)
    throw fail(`pricing.${stray}`, `is not a price of a ${entry.modality} model (use ${own.join(', ')})`);
  if (text) {
    const missing = TEXT_PRICE_KEYS.find((k) => !given.includes(k));
    if (missing) throw fail(`pricing.${missing}`, 'is required for a text model');
  } else if (!given.length) {
    throw fail('pricing', `needs at least one of ${MEDIA_PRICE_KEYS.join(', ')}`);
  }
}

function checkText(text: TextCapabilities, fail: (field: string, problem: string) => CatalogLoadError): void {
  if (text.maxOutputTokens > text.contextLength) {
    throw fail('text.maxOutputTokens', `must be at most text.contextLength (${text.contextLength})`);
  }
  if (text.defaultMaxTokens > text.maxOutputTokens) {
    throw fail('text.defaultMaxTokens', `must be at most text.maxOutputTokens (${text.maxOutputTokens})`);
  }
  for (const name of SAMPLING_PARAMETERS) {
    const bound = text.parameters[name];
    if (!bound) continue;
    if (bound.minimum > bound.maximum)
      throw fail(`text.parameters.${name}.minimum`, 'must not exceed maximum');
    if (bound.default !== undefined && (bound.default < bound.minimum || bound.default > bound.maximum)) {
      throw fail(`text.parameters.${name}.default`, `must be between ${bound.minimum} and ${bound.maximum}`);
    }
  }
  if (text.toolChoice && !text.tools) throw fail('text.toolChoice', 'needs text.tools to be true');
}
