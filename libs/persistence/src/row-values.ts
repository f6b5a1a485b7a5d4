/**
 * Reading column values the same way on both databases: pg returns BIGINT as text and timestamps as Date,
 * PGlite BIGINT as bigint; JSON columns may arrive parsed or as text. Repositories map rows with these.
 */
export const rowBigint = (value: unknown): bigint =>
  typeof value === 'bigint' ? value : BigInt(value as string | number);

export const rowDate = (value: unknown): Date => (value instanceof Date ? value : new Date(value as string));

/** Null (or absent) stays null. */
export const rowOptionalDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : rowDate(value);

/** Null (or absent) stays null. */
export const rowJson = <T>(value: unknown): T | null =>
  value === null || value === undefined
    ? null
    : typeof value === 'string'
      ? (JSON.parse(value) as T)
      : (value as T);
