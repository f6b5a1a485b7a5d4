import { subschemas } from '../domain/schema-walk';

/**
 * Where an input schema would let an unknown field through: the first object schema (root included) that
 * lists `properties` but does not say `additionalProperties`. Strict inputs need every such object closed
 * (`false`) or typed. Returns the JSON-pointer-ish path of that schema, or null when none.
 */
export function openObjectIn(schema: unknown): string | null {
  for (const { node, path } of subschemas(schema)) {
    const properties = node['properties'];
    const listsProperties =
      properties !== null && typeof properties === 'object' && !Array.isArray(properties);
    if (listsProperties && !('additionalProperties' in node)) return path || '/';
  }
  return null;
}
