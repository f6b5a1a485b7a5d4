import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';

/** The filters a task list pages over; a cursor freezes them. */
export interface ListFilters {
  readonly from: string;
  readonly to: string;
  readonly state?: string;
  readonly model?: string;
}

/** Position after the last item of a page: newest first by createdAt, then taskId. */
export interface ListCursor {
  readonly filters: ListFilters;
  readonly createdAt: string;
  readonly taskId: string;
}

/** Opaque to clients: base64url JSON. It only narrows a query that is scoped to the caller's key anyway. */
export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export function decodeCursor(text: string): ListCursor {
  const invalid = () =>
    new DomainError(BusinessCode.InvalidRequest, 'request.invalid_field', { field: 'cursor' });
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const c = value as Partial<ListCursor> | null;
  const f = c?.filters as Partial<ListFilters> | undefined;
  const optional = (v: unknown) => v === undefined || typeof v === 'string';
  if (
    !c ||
    typeof c.createdAt !== 'string' ||
    Number.isNaN(Date.parse(c.createdAt)) ||
    typeof c.taskId !== 'string' ||
    !f ||
    typeof f.from !== 'string' ||
    typeof f.to !== 'string' ||
    !optional(f.state) ||
    !optional(f.model)
  ) {
    throw invalid();
  }
  return c as ListCursor;
}
