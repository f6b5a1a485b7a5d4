import { BusinessCode } from '@gen/contracts';
import { DomainError, firstProblem, validatorFor } from '@gen/core';
import type { PipeTransform } from '@nestjs/common';
import { Type, type Static, type TObject } from '@sinclair/typebox';

/** A boolean query parameter: `true`, `false`, `1` or `0`; anything else is a 400. */
export const QueryBoolean = Type.Union(
  [Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')],
  { description: 'true, false, 1 or 0.' },
);

/** The value of a QueryBoolean: true for `true` and `1`, false when absent. */
export function queryFlag(value: Static<typeof QueryBoolean> | undefined): boolean {
  return value === 'true' || value === '1';
}

/** The query of a route that takes no parameters: any parameter is 400 (with QueryPipe). */
export const NoQuery = Type.Object({}, { additionalProperties: false });
export type NoQuery = Static<typeof NoQuery>;

/**
 * Validates a query string strictly: a parameter the schema does not name, one given twice, or one with an
 * empty value is a 400 naming it; then the values are checked against the schema (400 naming the first). Its
 * `schema` gives the operation's query parameters in the OpenAPI document (`openApiOf`).
 */
export class QueryPipe<T extends TObject> implements PipeTransform<unknown, Static<T>> {
  constructor(readonly schema: T) {}

  transform(value: unknown): Static<T> {
    const query = (value ?? {}) as Record<string, unknown>;
    for (const [name, given] of Object.entries(query)) {
      if (!Object.hasOwn(this.schema.properties, name))
        throw new DomainError(BusinessCode.InvalidRequest, 'query.unknown_parameter', { name });
      if (Array.isArray(given))
        throw new DomainError(BusinessCode.InvalidRequest, 'query.repeated_parameter', { name });
      if (given === '') throw new DomainError(BusinessCode.InvalidRequest, 'query.empty_parameter', { name });
    }
    const validate = validatorFor(this.schema);
    if (validate(query)) return query as Static<T>;
    const problem = firstProblem(validate.errors);
    throw new DomainError(BusinessCode.InvalidRequest, 'request.invalid_field', {
      field: problem.field || 'query',
    });
  }
}
