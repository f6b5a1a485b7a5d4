import { Injectable } from '@nestjs/common';
import { BusinessCode, type ApiKeyPrincipal } from '@gen/contracts';
import { DomainError } from '@gen/core';
import {
  DEFAULT_ASSET_SORT,
  decodeAssetCursor,
  encodeAssetCursor,
  type AssetListFilters,
  type AssetSort,
} from '../domain/asset-list-cursor';
import { assetViewOf, type AssetView } from '../mappers/asset-view';
import { PreviewLinks } from '../mappers/preview-links';
import { AssetRepository } from '../persistence/asset.repository';

/** The query of GET /api/v1/assets as validated at the edge (strings; booleans as `true`/`false`/`1`/`0`). */
export interface ListAssetsQuery {
  readonly favorite?: string;
  readonly collectionId?: string;
  readonly q?: string;
  readonly sort?: string;
  readonly limit?: string;
  readonly cursor?: string;
}

export interface AssetPage {
  readonly items: AssetView[];
  /** Absent on the last page. */
  readonly nextCursor?: string;
}

const FILTERS = ['favorite', 'collectionId', 'q', 'sort'] as const;

/**
 * GET /api/v1/assets: the account's library (every key of the account sees it), filtered and ordered as
 * asked, one page at a time. A cursor freezes the filters and order of its first page: they may be sent
 * again unchanged, another value is 400. Pages read live rows after the cursor's position.
 */
@Injectable()
export class ListAssetsUseCase {
  constructor(
    private readonly assets: AssetRepository,
    private readonly previews: PreviewLinks,
  ) {}

  async execute(principal: ApiKeyPrincipal, query: ListAssetsQuery): Promise<AssetPage> {
    const limit = query.limit === undefined ? 20 : Number(query.limit);
    const cursor = query.cursor !== undefined ? decodeAssetCursor(query.cursor) : undefined;
    const filters = filtersOf(query);
    if (cursor) assertSameFilters(cursor.filters, filters, query);
    const frozen = cursor?.filters ?? filters;
    const rows = await this.assets.list(principal.accountId, {
      filters: frozen,
      ...(cursor ? { after: { value: cursor.after, assetId: cursor.assetId } } : {}),
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: await Promise.all(page.map((asset) => assetViewOf(asset, this.previews))),
      ...(rows.length > limit && last
        ? {
            nextCursor: encodeAssetCursor({
              filters: frozen,
              after: frozen.sort.endsWith('createdAt') ? last.createdAt.toISOString() : last.name,
              assetId: last.id,
            }),
          }
        : {}),
    };
  }
}

function filtersOf(query: ListAssetsQuery): AssetListFilters {
  return {
    sort: (query.sort as AssetSort | undefined) ?? DEFAULT_ASSET_SORT,
    ...(query.favorite !== undefined
      ? { favorite: query.favorite === 'true' || query.favorite === '1' }
      : {}),
    ...(query.collectionId !== undefined ? { collectionId: query.collectionId } : {}),
    ...(query.q !== undefined ? { q: query.q } : {}),
  };
}

/** With a cursor, a filter sent again must have the cursor's value (an omitted one keeps it). */
function assertSameFilters(frozen: AssetListFilters, given: AssetListFilters, query: ListAssetsQuery): void {
  for (const name of FILTERS) {
    if (query[name] === undefined) continue;
    if (given[name] !== frozen[name]) {
      throw new DomainError(BusinessCode.InvalidRequest, 'query.cursor_filters_changed', {
        name,
        field: name,
      });
    }
  }
}
