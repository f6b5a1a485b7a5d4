import { isObject, type Json } from './fields';

/** Counts Google's JSON writes as int64 strings ("5"). */
const INT64_KEYWORDS = new Set([
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
]);

const camel = (key: string): string => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * Google's OpenAPI-subset `Schema` (function `parameters`, `responseSchema`) as the JSON Schema the canonical input
 * carries: `type` in lower case (`OBJECT` -> `object`), `nullable: true` as a `null` type, int64 counts as numbers,
 * `example` as `examples`, `propertyOrdering` (an ordering hint with no JSON Schema meaning) dropped. Keywords may
 * be spelt in snake case; property names are kept as written. Anything else passes through for validation later.
 */
export function jsonSchemaOf(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const out: Json = {};
  let nullable = false;
  for (const [rawKey, value] of Object.entries(schema)) {
    const key = camel(rawKey);
    if (key === 'type') {
      if (value !== 'TYPE_UNSPECIFIED') out.type = typeof value === 'string' ? value.toLowerCase() : value;
    } else if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, jsonSchemaOf(sub)]),
      );
    } else if (key === 'items') {
      out.items = jsonSchemaOf(value);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out.anyOf = value.map(jsonSchemaOf);
    } else if (key === 'nullable') {
      nullable = value === true;
    } else if (key === 'propertyOrdering') {
      continue;
    } else if (key === 'example') {
      out.examples = [value];
    } else if (INT64_KEYWORDS.has(key) && typeof value === 'string' && /^\d+$/.test(value)) {
      out[key] = Number(value);
    } else {
      out[key] = value;
    }
  }
  if (nullable) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.anyOf)) out.anyOf = [...(out.anyOf as unknown[]), { type: 'null' }];
  }
  return out;
}
