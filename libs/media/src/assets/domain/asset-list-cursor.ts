import { IdPrefix } from '@gen/contracts';
import { decodeCursorJson, encodeCursor, invalidCursor, ulidIdPattern } from '@gen/core';

export const ASSET_SORTS = ['createdAt', '-createdAt', 'name', '-name'] as const;
export type AssetSort = (typeof ASSET_SORTS)[number];
export const DEFAULT_ASSET_SORT: AssetSort = '-createdAt';

export const MAX_ASSET_NAME_LENGTH = 200;
export const MAX_ASSET_QUERY_LENGTH = 128;
export const COLLECTION_ID_PATTERN = '^col_[A-Za-z0-9_-]{1,64}$';

/** The filters and order a list pages over; a cursor freezes them. */
export interface AssetListFilters {
  readonly sort: AssetSort;
  readonly favorite?: boolean;
  readonly collectionId?: string;
  readonly q?: string;
}

/** Position after the last item of a page: its sort value (createdAt as ISO text, or the name), then its id. */
export interface AssetListCursor {
  readonly filters: AssetListFilters;
  readonly after: string;
  readonly assetId: string;
}

/** Opaque to clients: base64url JSON. It only narrows a query that is scoped to the caller's account anyway. */
export function encodeAssetCursor(cursor: AssetListCursor): string {
  return encodeCursor(cursor);
}

const ASSET_ID = new RegExp(ulidIdPattern(IdPrefix.asset));
const COLLECTION_ID = new RegExp(COLLECTION_ID_PATTERN);
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SORTS: ReadonlySet<string> = new Set(ASSET_SORTS);

/** Lengths as the request schemas count them (ajv: code points, not UTF-16 units). */
const codePoints = (text: string) => [...text].length;
const isOptional = (value: unknown, check: (v: unknown) => boolean) => value === undefined || check(value);

/**
 * The cursor a client sent back, checked like any other input before it narrows a query: one that does not
 * decode, or is not one of ours in shape, is a 400 naming `cursor`.
 */
export function decodeAssetCursor(text: string): AssetListCursor {
  const invalid = invalidCursor;
  const value = decodeCursorJson(text, 2);
  const c = value as Partial<AssetListCursor> | null;
  const f = c?.filters as Partial<AssetListFilters> | undefined;
  const valid =
    !!c &&
    !!f &&
    typeof f.sort === 'string' &&
    SORTS.has(f.sort) &&
    isOptional(f.favorite, (v) => typeof v === 'boolean') &&
    isOptional(f.collectionId, (v) => typeof v === 'string' && COLLECTION_ID.test(v)) &&
    isOptional(
      f.q,
      (v) => typeof v === 'string' && v.length > 0 && codePoints(v) <= MAX_ASSET_QUERY_LENGTH,
    ) &&
    typeof c.assetId === 'string' &&
    ASSET_ID.test(c.assetId) &&
    typeof c.after === 'string' &&
    (f.sort.endsWith('createdAt')
      ? ISO_TIME.test(c.after) && !Number.isNaN(Date.parse(c.after))
      : c.after.length > 0 && codePoints(c.after) <= MAX_ASSET_NAME_LENGTH);
  if (!valid) throw invalid();
  return c as AssetListCursor;
}
