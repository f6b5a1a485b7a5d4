import { MEDIA_URI_FORMAT } from '@gen/contracts';
import type { MessageId } from '@gen/core';
import type { ErrorObject } from 'ajv';

export interface InputProblem {
  readonly messageId: MessageId;
  /** Dot path of the field inside `input` ("" for the input itself). */
  readonly path: string;
  readonly params: Readonly<Record<string, string | number>>;
}

const BRANCHING = new Set(['anyOf', 'oneOf', 'if', 'allOf', 'not']);

function pathOf(instancePath: string): string[] {
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const show = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The one problem reported for an invalid input, from ajv's errors (first failing keyword). Under anyOf
 * (a field that may be a string or a list, say), ajv lists every branch's error: the deepest one names the
 * real mistake; when none goes deeper than the field itself, the field as a whole is invalid.
 */
export function inputProblem(errors: readonly ErrorObject[] | null | undefined): InputProblem {
  const all = errors ?? [];
  const branching = all.find((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  let error = all.find((e) => !BRANCHING.has(e.keyword));
  if (branching) {
    const leaves = all.filter((e) => !BRANCHING.has(e.keyword));
    const deepest = leaves.reduce<ErrorObject | undefined>(
      (best, e) => (!best || pathOf(e.instancePath).length > pathOf(best.instancePath).length ? e : best),
      undefined,
    );
    const base = pathOf(branching.instancePath).length;
    const deeper =
      deepest &&
      (pathOf(deepest.instancePath).length > base ||
        deepest.keyword === 'additionalProperties' ||
        deepest.keyword === 'required');
    error = deeper ? deepest : undefined;
    if (!error)
      return {
        messageId: 'request.invalid_field',
        path: pathOf(branching.instancePath).join('.'),
        params: {},
      };
  }
  if (!error) return { messageId: 'request.invalid_field', path: '', params: {} };
  const segments = pathOf(error.instancePath);
  const at = (extra?: string) => [...segments, ...(extra === undefined ? [] : [extra])].join('.');
  const p = error.params as Record<string, unknown>;
  const limit = { limit: Number(p['limit']) };
  switch (error.keyword) {
    case 'additionalProperties':
      return { messageId: 'request.unknown_field', path: at(String(p['additionalProperty'])), params: {} };
    case 'false schema':
      // A property a schema allows only in some shapes of its object (a chat message's role): here it has none.
      return { messageId: 'request.unknown_field', path: at(), params: {} };
    case 'required':
      return { messageId: 'request.missing_field', path: at(String(p['missingProperty'])), params: {} };
    case 'type':
      return {
        messageId: 'input.wrong_type',
        path: at(),
        params: { type: Array.isArray(p['type']) ? p['type'].join(' | ') : String(p['type']) },
      };
    case 'enum':
      return {
        messageId: 'input.not_allowed_value',
        path: at(),
        params: { allowed: (p['allowedValues'] as unknown[]).map(show).join(', ') },
      };
    case 'const':
      return {
        messageId: 'input.not_allowed_value',
        path: at(),
        params: { allowed: show(p['allowedValue']) },
      };
    case 'minimum':
      return { messageId: 'input.too_small', path: at(), params: limit };
    case 'maximum':
      return { messageId: 'input.too_large', path: at(), params: limit };
    case 'exclusiveMinimum':
      return { messageId: 'input.not_above', path: at(), params: limit };
    case 'exclusiveMaximum':
      return { messageId: 'input.not_below', path: at(), params: limit };
    case 'multipleOf':
      return { messageId: 'input.not_multiple', path: at(), params: { limit: Number(p['multipleOf']) } };
    case 'minLength':
      return { messageId: 'input.too_short', path: at(), params: limit };
    case 'maxLength':
      return { messageId: 'input.too_long', path: at(), params: limit };
    case 'minItems':
      return { messageId: 'input.too_few_items', path: at(), params: limit };
    case 'maxItems':
      return { messageId: 'input.too_many_items', path: at(), params: limit };
    case 'format':
      if (p['format'] === MEDIA_URI_FORMAT)
        return { messageId: 'input.not_media_uri', path: at(), params: {} };
      return { messageId: 'input.bad_format', path: at(), params: {} };
    case 'pattern':
      return { messageId: 'input.bad_format', path: at(), params: {} };
    default:
      return { messageId: 'request.invalid_field', path: at(), params: {} };
  }
}
