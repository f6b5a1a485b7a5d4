import { BusinessCode } from '@gen/contracts';
import { DomainError, firstProblem, validatorFor } from '@gen/core';
import type { PipeTransform } from '@nestjs/common';
import type { Static, TSchema } from '@sinclair/typebox';

/**
 * Validates a body, query or route parameter against a TypeBox schema (ajv, compiled once); 400 names the
 * first bad field. `name` names the value itself when it is not an object, e.g. the route parameter
 * (`@Param('accountId', new SchemaPipe(AccountId, 'accountId'))`). Its `schema` is also what the OpenAPI document
 * says of the value (`openApiOf`).
 */
export class SchemaPipe<T extends TSchema> implements PipeTransform<unknown, Static<T>> {
  constructor(
    readonly schema: T,
    private readonly name = 'body',
  ) {}

  transform(value: unknown): Static<T> {
    if (
      this.schema['type'] === 'object' &&
      (value === null || typeof value !== 'object' || Array.isArray(value))
    ) {
      throw new DomainError(BusinessCode.InvalidRequest, 'request.body_required');
    }
    const validate = validatorFor(this.schema);
    if (validate(value)) return value;
    const problem = firstProblem(validate.errors);
    const messageId =
      problem.kind === 'unknown'
        ? 'request.unknown_field'
        : problem.kind === 'missing'
          ? 'request.missing_field'
          : 'request.invalid_field';
    throw new DomainError(BusinessCode.InvalidRequest, messageId, { field: problem.field || this.name });
  }
}
