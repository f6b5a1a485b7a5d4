import { invalidField } from './domain-error';
import { findInputProblem } from './well-formed-input';

/** A list cursor as clients see it: the JSON of where the page ended, base64url. Opaque to them. */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * The JSON a client sent back as a cursor, checked like any other input before a list's own shape check:
 * one that does not decode, or holds a NUL, a lone surrogate or more than `maxDepth` levels, is the 400
 * naming `cursor` (`invalidCursor`), the same as one whose shape is not the list's.
 */
export function decodeCursorJson(text: string, maxDepth: number): unknown {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (findInputProblem(value, { root: 'cursor', maxDepth })) throw invalidCursor();
  return value;
}

export const invalidCursor = () => invalidField('cursor');
