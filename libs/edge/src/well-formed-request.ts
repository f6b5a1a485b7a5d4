import { BusinessCode } from '@gen/contracts';
import { DomainError, MAX_JSON_DEPTH, findInputProblem, type InputProblem } from '@gen/core';
import type { FastifyRequest } from 'fastify';

/** The 400 of an input problem; it names the field, never repeats the text refused. */
export function inputRefusal(problem: InputProblem): DomainError {
  // A wildcard route parameter (`/api/v1/models/*`) is the path itself.
  const field = problem.field === '*' ? 'path' : problem.field;
  switch (problem.kind) {
    case 'too_deep':
      return new DomainError(BusinessCode.InvalidRequest, 'request.too_deep', { max: MAX_JSON_DEPTH, field });
    case 'nul_character':
      return new DomainError(BusinessCode.InvalidRequest, 'request.nul_character', { field });
    case 'ill_formed_text':
      return new DomainError(BusinessCode.InvalidRequest, 'request.ill_formed_text', { field });
  }
}

/**
 * The first check of every request's values, before validation, routes and use cases read them: route
 * parameters, query and JSON body. A body nested deeper than MAX_JSON_DEPTH, or any string (value or key)
 * holding NUL or a lone surrogate, is a 400. Headers need no such check: Node's HTTP parser refuses control
 * characters in them (see `envelopeClientErrors`), and it decodes them as Latin-1, which has no surrogates.
 */
export function refuseIllFormedInput(request: Pick<FastifyRequest, 'params' | 'query' | 'body'>): void {
  const problem =
    findInputProblem(request.params, { root: 'path' }) ??
    findInputProblem(request.query, { root: 'query' }) ??
    findInputProblem(request.body, { root: 'body' });
  if (problem) throw inputRefusal(problem);
}
