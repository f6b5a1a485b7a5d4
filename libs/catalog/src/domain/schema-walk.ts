export type SchemaNode = Record<string, unknown>;

export const isSchemaObject = (value: unknown): value is SchemaNode =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Keywords whose value maps names to subschemas, holds a list of subschemas, or is one. */
export const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
export const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
export const SCHEMAS = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
];

/**
 * Every subschema of `schema` (itself first) with its JSON-pointer-ish path (`/properties/image`), depth
 * first in keyword order. Values of data keywords (`default`, `enum`, `examples`, ...) are not schemas and
 * are not visited.
 */
export function* subschemas(schema: unknown, path = ''): Generator<{ node: SchemaNode; path: string }> {
  if (!isSchemaObject(schema)) return;
  yield { node: schema, path };
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (!isSchemaObject(map)) continue;
    for (const [name, sub] of Object.entries(map)) yield* subschemas(sub, `${path}/${key}/${name}`);
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const [i, sub] of list.entries()) yield* subschemas(sub, `${path}/${key}/${i}`);
  }
  for (const key of SCHEMAS) yield* subschemas(schema[key], `${path}/${key}`);
}
