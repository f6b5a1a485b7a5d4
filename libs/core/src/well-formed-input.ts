/**
 * The limits every request value is held to before anything reads it: JSON nested at most MAX_JSON_DEPTH
 * levels, and text that PostgreSQL can store and any strict JSON parser can read back (no NUL, no lone
 * surrogate). The walk is iterative, so no input can exhaust the stack while it is checked.
 */

/** Deepest nesting of objects and arrays in a JSON body; the body itself is level 1. */
export const MAX_JSON_DEPTH = 64;

export type TextProblem = 'nul_character' | 'ill_formed_text';

export interface InputProblem {
  readonly kind: 'too_deep' | TextProblem;
  /**
   * Dot path of the offending value (`input.prompt`, `input.images.0`), or the `root` name when it is the
   * value itself. For a bad key, the path of the object holding it: the key itself is never repeated.
   */
  readonly field: string;
}

// ES2024 (Node 20+); the project's TypeScript lib is ES2023.
const isWellFormed = (String.prototype as unknown as { isWellFormed: (this: string) => boolean })
  .isWellFormed;

/**
 * Null when `text` can be stored and echoed as it is; otherwise why not: a NUL character (PostgreSQL text
 * cannot hold 0x00) or ill-formed UTF-16 (a lone surrogate, which UTF-8 cannot encode).
 */
export function textProblem(text: string): TextProblem | null {
  if (text.includes('\u0000')) return 'nul_character';
  if (!isWellFormed.call(text)) return 'ill_formed_text';
  return null;
}

/**
 * Objects and arrays as JSON.parse and the query parser make them (plain objects, or dictionaries whose
 * prototype chain is null-based); anything else (a Buffer, a stream) is opaque.
 */
function containerOf(value: unknown): Record<string, unknown> | unknown[] | null {
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) return value;
  const proto = Object.getPrototypeOf(value) as object | null;
  const dictionary = proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
  return dictionary ? (value as Record<string, unknown>) : null;
}

interface Pending {
  readonly value: Record<string, unknown> | unknown[];
  readonly path: string;
  readonly depth: number;
}

/**
 * The first problem of a parsed value (a JSON body, a query or the route parameters), or null: nesting
 * deeper than `maxDepth`, or a string, value or key, that `textProblem` refuses. Iterative, and it stops
 * at the first problem, so a hostile value costs at most one pass.
 */
export function findInputProblem(
  value: unknown,
  options: { readonly root: string; readonly maxDepth?: number },
): InputProblem | null {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const at = (path: string): string => path || options.root;
  const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { kind: problem, field: options.root } : null;
  }
  const root = containerOf(value);
  if (!root) return null;
  if (maxDepth < 1) return { kind: 'too_deep', field: options.root };
  const stack: Pending[] = [{ value: root, path: '', depth: 1 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { path, depth } = next;
    const visit = (key: string, item: unknown): InputProblem | null => {
      if (typeof item === 'string') {
        const problem = textProblem(item);
        return problem ? { kind: problem, field: join(path, key) } : null;
      }
      const child = containerOf(item);
      if (!child) return null;
      if (depth + 1 > maxDepth) return { kind: 'too_deep', field: at(path) };
      stack.push({ value: child, path: join(path, key), depth: depth + 1 });
      return null;
    };
    if (Array.isArray(next.value)) {
      for (let index = 0; index < next.value.length; index += 1) {
        const problem = visit(String(index), next.value[index]);
        if (problem) return problem;
      }
      continue;
    }
    for (const key of Object.keys(next.value)) {
      const keyProblem = textProblem(key);
      if (keyProblem) return { kind: keyProblem, field: at(path) };
      const problem = visit(key, next.value[key]);
      if (problem) return problem;
    }
  }
  return null;
}
