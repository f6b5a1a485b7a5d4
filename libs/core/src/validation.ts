import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Static, TSchema } from '@sinclair/typebox';

/**
 * The one validation stack: TypeBox schemas compiled by ajv. Strict about unknown keywords except the few
 * annotations we put on schemas ourselves.
 */
export function createAjv(options: { coerceTypes?: boolean; useDefaults?: boolean } = {}): Ajv {
  const ajv = new Ajv({
    allErrors: false,
    strict: true,
    coerceTypes: options.coerceTypes ?? false,
    useDefaults: options.useDefaults ?? false,
    removeAdditional: false,
  });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-secret', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'x-example', schemaType: ['string', 'number', 'boolean', 'object', 'array'] });
  return ajv;
}

const shared = createAjv();
const compiled = new WeakMap<TSchema, ValidateFunction>();

/** Compiles a schema once and caches the validator. */
export function validatorFor<T extends TSchema>(schema: T): ValidateFunction<Static<T>> {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = shared.compile(schema);
    compiled.set(schema, fn);
  }
  return fn as ValidateFunction<Static<T>>;
}

export interface FieldProblem {
  /** Dot path of the offending field ("" for the whole body). */
  readonly field: string;
  readonly kind: 'unknown' | 'missing' | 'invalid';
}

/** Turns the first ajv error into the field it concerns, as a dot path. */
export function firstProblem(errors: readonly ErrorObject[] | null | undefined): FieldProblem {
  const error = errors?.[0];
  if (!error) return { field: '', kind: 'invalid' };
  const base = error.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
  const join = (name: string): string => (base ? `${base}.${name}` : name);
  switch (error.keyword) {
    case 'additionalProperties':
      return {
        field: join(String((error.params as { additionalProperty: string }).additionalProperty)),
        kind: 'unknown',
      };
    case 'required':
      return {
        field: join(String((error.params as { missingProperty: string }).missingProperty)),
        kind: 'missing',
      };
    default:
      return { field: base, kind: 'invalid' };
  }
}
