import { IdPrefix } from '@gen/contracts';
import { decodeCursorJson, encodeCursor, invalidCursor, ulidIdPattern } from '@gen/core';

/** Position after the last character of a page: oldest first by createdAt, then entityId. */
export interface EntityListCursor {
  readonly createdAt: string;
  readonly entityId: string;
}

export function encodeEntityCursor(cursor: EntityListCursor): string {
  return encodeCursor(cursor);
}

const ENTITY_ID = new RegExp(ulidIdPattern(IdPrefix.assetEntity));
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A cursor that does not decode, or is not one of ours in shape, is a 400 naming `cursor`. */
export function decodeEntityCursor(text: string): EntityListCursor {
  const invalid = invalidCursor;
  const value = decodeCursorJson(text, 1);
  const c = value as Partial<EntityListCursor> | null;
  if (
    !c ||
    typeof c.createdAt !== 'string' ||
    !ISO_TIME.test(c.createdAt) ||
    Number.isNaN(Date.parse(c.createdAt)) ||
    typeof c.entityId !== 'string' ||
    !ENTITY_ID.test(c.entityId)
  ) {
    throw invalid();
  }
  return c as EntityListCursor;
}
