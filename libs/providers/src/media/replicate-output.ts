/**
 * The file URLs (or data: URIs) in a Replicate/Cog prediction's `output`: one string, an array of them, or an
 * object whose values are strings or arrays of strings (taken in the object's key order, as sent). Null when
 * the output holds anything else (text, numbers, nested objects): not files this service can store.
 */
export function predictionOutputUrls(output: unknown): string[] | null {
  const strings = (value: unknown): string[] | null => {
    if (typeof value === 'string') return value === '' ? null : [value];
    if (!Array.isArray(value)) return null;
    const all = value.map((item) => (typeof item === 'string' && item !== '' ? item : null));
    return all.every((item) => item !== null) ? (all as string[]) : null;
  };
  if (output !== null && typeof output === 'object' && !Array.isArray(output)) {
    const parts = Object.values(output).map(strings);
    return parts.every((part) => part !== null) ? (parts as string[][]).flat() : null;
  }
  return strings(output);
}

const SAFETY =
  /nsfw|not safe for work|unsafe|safety|content[ _-]?(policy|filter|moderation)|moderation|flagged/i;

/** True when a failed prediction's `error` says the content was refused (NSFW checker, safety filter, policy). */
export function isPredictionRefusal(error: string): boolean {
  return SAFETY.test(error);
}
