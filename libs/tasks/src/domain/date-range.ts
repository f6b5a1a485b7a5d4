import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';

/** Spec, Limits: the date range of the task list and usage is at most 92 days. */
export const MAX_RANGE_DAYS = 92;
const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A UTC half-open interval [from, to) of whole days. */
export interface DateRange {
  readonly from: string;
  readonly to: string;
}

function parseDate(field: string, text: string): number {
  const match = DATE.exec(text);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  // Date.UTC rolls 2026-02-30 over to March: a real date prints back the same.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text) {
    throw new DomainError(BusinessCode.InvalidRequest, 'request.invalid_field', { field });
  }
  return ms;
}

const dateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * The spec's rules: `to` defaults to tomorrow (UTC), `from` to seven days before `to`; from < to; at most 92
 * days. Returns the range with both ends filled in, so a cursor can freeze them.
 */
export function resolveDateRange(query: { from?: string; to?: string }, now: Date): DateRange {
  const todayMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const to = query.to !== undefined ? parseDate('to', query.to) : todayMs + DAY_MS;
  const from = query.from !== undefined ? parseDate('from', query.from) : to - 7 * DAY_MS;
  if (from >= to) throw new DomainError(BusinessCode.InvalidRequest, 'query.invalid_range');
  if (to - from > MAX_RANGE_DAYS * DAY_MS) {
    throw new DomainError(BusinessCode.InvalidRequest, 'query.range_too_long', { max: MAX_RANGE_DAYS });
  }
  return { from: dateOf(from), to: dateOf(to) };
}

export const startOf = (date: string): Date => new Date(`${date}T00:00:00.000Z`);
