import type { ErrorObject } from 'ajv';

/**
 * Why a catalog file was refused. The message names the model (or the list position when the entry has
 * no usable id) and the field, e.g.
 * `catalog: model "local/image-1": pricing.perImage must be a USD amount (...)`.
 */
export class CatalogLoadError extends Error {
  constructor(
    message: string,
    readonly modelId?: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'CatalogLoadError';
  }

  static at(model: string | undefined, field: string, problem: string): CatalogLoadError {
    const where = model === undefined ? '' : `model "${model}": `;
    return new CatalogLoadError(`catalog: ${where}${field ? `${field} ` : ''}${problem}`, model, field);
  }
}

/** Decodes a JSON pointer into its segments. */
export function pointerSegments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The schema node a schemaPath (`#/properties/models/items/...`) points into, without its keyword. */
function schemaNodeAt(root: unknown, schemaPath: string): Record<string, unknown> | undefined {
  let node: unknown = root;
  const segments = pointerSegments(schemaPath.replace(/^#/, ''));
  for (const segment of segments.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node !== null && typeof node === 'object' ? (node as Record<string, unknown>) : undefined;
}

/** What went wrong at one ajv error, as a phrase that follows the field name. */
export function describeSchemaError(
  error: ErrorObject,
  rootSchema: unknown,
): { tail: string; problem: string } {
  const params = error.params as Record<string, unknown>;
  const expected = schemaNodeAt(rootSchema, error.schemaPath)?.['x-expected'];
  switch (error.keyword) {
    case 'required':
      return { tail: String(params['missingProperty']), problem: 'is required' };
    case 'additionalProperties':
      return { tail: String(params['additionalProperty']), problem: 'is not a known field' };
    case 'type':
      return {
        tail: '',
        problem: `must be ${typeof expected === 'string' ? expected : `of type ${String(params['type'])}`}`,
      };
    default:
      return {
        tail: '',
        problem: typeof expected === 'string' ? `must be ${expected}` : String(error.message),
      };
  }
}
