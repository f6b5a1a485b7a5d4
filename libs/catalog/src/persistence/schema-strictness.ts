type Node = Record<string, unknown>;

const isObject = (value: unknown): value is Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SCHEMAS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];

/**
 * Where an input schema would let an unknown field through: the first object schema (root included) that
 * lists `properties` but does not say `additionalProperties`. Strict inputs need every such object closed
 * (`false`) or typed. Returns the JSON-pointer-ish path of that schema, or null when none.
 */
export function openObjectIn(schema: unknown, path = ''): string | null {
  if (!isObject(schema)) return null;
  if (isObject(schema['properties']) && !('additionalProperties' in schema)) return path || '/';
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (!isObject(map)) continue;
    for (const [name, sub] of Object.entries(map)) {
      const found = openObjectIn(sub, `${path}/${key}/${name}`);
      if (found) return found;
    }
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const [i, sub] of list.entries()) {
      const found = openObjectIn(sub, `${path}/${key}/${i}`);
      if (found) return found;
    }
  }
  for (const key of SCHEMAS) {
    const found = openObjectIn(schema[key], `${path}/${key}`);
    if (found) return found;
  }
  return null;
}
