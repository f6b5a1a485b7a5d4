import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { sortKeysDeep } from './sorted-json';
import type { LoadedModel } from './catalog';
import { inputProblem } from './input-problem';

export interface ValidateInputOptions {
  /**
   * Prefix of the field named in errors: `input` for the native task request (`input.width`), empty for
   * the compatibility protocols, whose canonical fields are top-level request fields (`temperature`).
   */
  readonly fieldPrefix?: string;
}

/**
 * Validates a task input against the model's inputSchema (strict: an unknown field is refused) and returns
 * it normalized: a copy with the schema's defaults applied and every object's keys sorted, so that equal
 * requests serialize, fingerprint and compare the same. The caller's object is never changed.
 * Throws a DomainError (400) whose message id and params name the failing field, translated at the edge.
 */
export function validateModelInput(
  model: LoadedModel,
  input: unknown,
  options: ValidateInputOptions = {},
): Record<string, unknown> {
  const prefix = options.fieldPrefix ?? 'input';
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new DomainError(BusinessCode.InvalidRequest, 'input.not_object', { field: prefix || 'input' });
  }
  const copy = sortKeysDeep(input as Record<string, unknown>);
  if (!model.validateInput(copy)) {
    const problem = inputProblem(model.validateInput.errors);
    const field = [prefix, problem.path].filter(Boolean).join('.') || 'input';
    throw new DomainError(BusinessCode.InvalidRequest, problem.messageId, { ...problem.params, field });
  }
  // Defaults were added at the end of their objects; sort once more so that they take their place.
  return sortKeysDeep(copy);
}
