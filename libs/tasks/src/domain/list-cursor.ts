import { IdPrefix } from '@gen/contracts';
import { decodeCursorJson, encodeCursor as encodeJson, invalidCursor, ulidIdPattern } from '@gen/core';
import { TASK_STATES } from './task-state';

/** The filters a task list pages over; a cursor freezes them. */
export interface ListFilters {
  readonly from: string;
  readonly to: string;
  readonly state?: string;
  readonly model?: string;
  /** The console's filter by key (`/console/v1/tasks?keyId=`). */
  readonly keyId?: string;
}

/** Position after the last item of a page: newest first by createdAt, then taskId. */
export interface ListCursor {
  readonly filters: ListFilters;
  readonly createdAt: string;
  readonly taskId: string;
}

/** Opaque to clients: base64url JSON. It only narrows a query that is scoped to the caller's key anyway. */
export function encodeCursor(cursor: ListCursor): string {
  return encodeJson(cursor);
}

const TASK_ID = new RegExp(ulidIdPattern(IdPrefix.task));
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const STATES: ReadonlySet<string> = new Set(TASK_STATES);
const MAX_MODEL_LENGTH = 256;
const KEY_ID = new RegExp(`^${IdPrefix.apiKey}_[0-9A-Za-z]{16}$`);

/**
 * The cursor a client sent back, checked like any other input before it narrows a query: a cursor that is
 * not one of ours in shape (another id form, a NUL, a lone surrogate, a state that does not exist) is the
 * same 400 as one that does not decode.
 */
export function decodeCursor(text: string): ListCursor {
  const invalid = invalidCursor;
  const value = decodeCursorJson(text, 2);
  const c = value as Partial<ListCursor> | null;
  const f = c?.filters as Partial<ListFilters> | undefined;
  if (
    !c ||
    typeof c.createdAt !== 'string' ||
    !ISO_TIME.test(c.createdAt) ||
    Number.isNaN(Date.parse(c.createdAt)) ||
    typeof c.taskId !== 'string' ||
    !TASK_ID.test(c.taskId) ||
    !f ||
    typeof f.from !== 'string' ||
    !DATE.test(f.from) ||
    typeof f.to !== 'string' ||
    !DATE.test(f.to) ||
    (f.state !== undefined && (typeof f.state !== 'string' || !STATES.has(f.state))) ||
    (f.model !== undefined &&
      (typeof f.model !== 'string' || f.model.length === 0 || f.model.length > MAX_MODEL_LENGTH)) ||
    (f.keyId !== undefined && (typeof f.keyId !== 'string' || !KEY_ID.test(f.keyId)))
  ) {
    throw invalid();
  }
  return c as ListCursor;
}
