import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, rowDate, type Database } from '@gen/persistence';
import type { Asset, AssetChanges, AssetUsage } from '../domain/asset';
import type { AssetListFilters } from '../domain/asset-list-cursor';
import { AssetsMigrations } from './assets-schema';

const TABLE = '"assets"."assets"';
const IDEMPOTENCY = '"assets"."idempotency_records"';
const COLUMNS = `"id", "account_id", "name", "favorite", "collection_id", "file_id", "object_key", "content_type",
  "bytes", "created_by_key_id", "created_at", "updated_at"`;

const USAGE = `SELECT COALESCE(SUM("bytes"), 0)::text AS "used", COUNT(*)::int AS "count" FROM ${TABLE}
  WHERE "account_id" = $1`;

const usageOf = (rows: Record<string, unknown>[]): AssetUsage => ({
  usedBytes: Number(rows[0]!['used']),
  assetCount: Number(rows[0]!['count']),
});

function rowOf(raw: Record<string, unknown>): Asset {
  return {
    id: raw['id'] as string,
    accountId: raw['account_id'] as string,
    name: raw['name'] as string,
    favorite: raw['favorite'] === true,
    collectionId: (raw['collection_id'] as string | null) ?? null,
    fileId: raw['file_id'] as string,
    objectKey: raw['object_key'] as string,
    contentType: raw['content_type'] as string,
    bytes: Number(raw['bytes']),
    createdByKeyId: raw['created_by_key_id'] as string,
    createdAt: rowDate(raw['created_at']),
    updatedAt: rowDate(raw['updated_at']),
  };
}

/** Who holds an Idempotency-Key of saving, and what it saved. */
export interface IdempotencyHolder {
  readonly keyId: string;
  readonly fingerprint: string;
  readonly assetId: string;
}

/** The Idempotency-Key a save claims; records created before `windowStart` no longer count. */
export interface SaveClaim {
  readonly idemKey: string;
  readonly keyId: string;
  readonly fingerprint: string;
  readonly windowStart: Date;
}

export type SaveOutcome = { readonly saved: Asset } | { readonly holder: IdempotencyHolder };

/** Where a list page starts: after this sort value (a time for createdAt, else a name) and id. */
export interface AssetPageQuery {
  readonly filters: AssetListFilters;
  readonly after?: { readonly value: string; readonly assetId: string };
  readonly limit: number;
}

/**
 * Names sort by their bytes (collation "C"), the same on PostgreSQL and PGlite whatever the server's locale,
 * so that a cursor's position means the same thing on every page.
 */
const ORDER: Record<AssetListFilters['sort'], { column: string; direction: 'ASC' | 'DESC' }> = {
  createdAt: { column: '"created_at"', direction: 'ASC' },
  '-createdAt': { column: '"created_at"', direction: 'DESC' },
  name: { column: '"name" COLLATE "C"', direction: 'ASC' },
  '-name': { column: '"name" COLLATE "C"', direction: 'DESC' },
};

/** Data access of the asset library. Every query is scoped by the account. */
@Injectable()
export class AssetRepository {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    // Injected so that the schema's migrations have run before the first query.
    readonly migrations: AssetsMigrations,
  ) {}

  /** The holder of a key within its window, or null. */
  async findHolder(accountId: string, idemKey: string, windowStart: Date): Promise<IdempotencyHolder | null> {
    const rows = await this.db.query(
      `SELECT "key_id", "fingerprint", "asset_id" FROM ${IDEMPOTENCY}
       WHERE "account_id" = $1 AND "idem_key" = $2 AND "created_at" >= $3`,
      [accountId, idemKey, windowStart],
    );
    return rows[0] ? holderOf(rows[0]) : null;
  }

  /**
   * Saves `asset` and claims its Idempotency-Key in one transaction, under a transaction-scoped advisory lock
   * of the account: concurrent saves of one account take turns, so neither a limit nor a key is passed twice.
   * Under the lock, a key that a concurrent save claimed meanwhile returns its holder (nothing written);
   * otherwise `admit` sees the library's usage and throws to refuse (nothing written either). Expired key
   * records of the account are removed on the way.
   */
  async saveOnce(asset: Asset, claim: SaveClaim, admit: (usage: AssetUsage) => void): Promise<SaveOutcome> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`assets.library:${asset.accountId}`]);
      const held = await tx.query(
        `SELECT "key_id", "fingerprint", "asset_id" FROM ${IDEMPOTENCY}
         WHERE "account_id" = $1 AND "idem_key" = $2 AND "created_at" >= $3`,
        [asset.accountId, claim.idemKey, claim.windowStart],
      );
      if (held[0]) return { holder: holderOf(held[0]) };
      admit(usageOf(await tx.query(USAGE, [asset.accountId])));
      await tx.query(`DELETE FROM ${IDEMPOTENCY} WHERE "account_id" = $1 AND "created_at" < $2`, [
        asset.accountId,
        claim.windowStart,
      ]);
      await tx.query(
        `INSERT INTO ${IDEMPOTENCY} ("account_id", "idem_key", "key_id", "fingerprint", "asset_id", "created_at")
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [asset.accountId, claim.idemKey, claim.keyId, claim.fingerprint, asset.id, asset.createdAt],
      );
      const rows = await tx.query(
        `INSERT INTO ${TABLE} (${COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
         RETURNING ${COLUMNS}`,
        [
          asset.id,
          asset.accountId,
          asset.name,
          asset.favorite,
          asset.collectionId,
          asset.fileId,
          asset.objectKey,
          asset.contentType,
          asset.bytes,
          asset.createdByKeyId,
          asset.createdAt,
        ],
      );
      return { saved: rowOf(rows[0]!) };
    });
  }

  /** One asset of the account; null for an unknown id and for another account's asset alike. */
  async find(accountId: string, id: string): Promise<Asset | null> {
    const rows = await this.db.query(
      `SELECT ${COLUMNS} FROM ${TABLE} WHERE "account_id" = $1 AND "id" = $2`,
      [accountId, id],
    );
    return rows[0] ? rowOf(rows[0]) : null;
  }

  /**
   * One page of the account's assets in the order of `filters.sort`, ties broken by id in the same direction,
   * starting after `after` (keyset paging: rows added or removed meanwhile neither repeat nor skip others).
   */
  async list(accountId: string, page: AssetPageQuery): Promise<Asset[]> {
    const { filters } = page;
    const order = ORDER[filters.sort];
    const params: unknown[] = [accountId];
    const where = ['"account_id" = $1'];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (filters.favorite !== undefined) where.push(`"favorite" = ${param(filters.favorite)}`);
    if (filters.collectionId !== undefined) where.push(`"collection_id" = ${param(filters.collectionId)}`);
    if (filters.q !== undefined) where.push(`strpos(lower("name"), lower(${param(filters.q)})) > 0`);
    if (page.after) {
      const comparison = order.direction === 'ASC' ? '>' : '<';
      const value = filters.sort.endsWith('createdAt')
        ? `${param(new Date(page.after.value))}::timestamptz`
        : `${param(page.after.value)}::text COLLATE "C"`;
      where.push(`(${order.column}, "id") ${comparison} (${value}, ${param(page.after.assetId)})`);
    }
    const rows = await this.db.query(
      `SELECT ${COLUMNS} FROM ${TABLE} WHERE ${where.join(' AND ')}
       ORDER BY ${order.column} ${order.direction}, "id" ${order.direction}
       LIMIT ${param(page.limit)}`,
      params,
    );
    return rows.map(rowOf);
  }

  /** Applies the given changes in one statement; fields left out keep their value. Null when not found. */
  async update(accountId: string, id: string, changes: AssetChanges, now: Date): Promise<Asset | null> {
    const rows = await this.db.query(
      `UPDATE ${TABLE} SET
         "name" = COALESCE($3::text, "name"),
         "favorite" = COALESCE($4::boolean, "favorite"),
         "updated_at" = $5
       WHERE "account_id" = $1 AND "id" = $2
       RETURNING ${COLUMNS}`,
      [accountId, id, changes.name ?? null, changes.favorite ?? null, now],
    );
    return rows[0] ? rowOf(rows[0]) : null;
  }

  /** Removes one asset of the account; false when there was none. */
  async delete(accountId: string, id: string): Promise<boolean> {
    const rows = await this.db.query(
      `DELETE FROM ${TABLE} WHERE "account_id" = $1 AND "id" = $2 RETURNING "id"`,
      [accountId, id],
    );
    return rows.length > 0;
  }

  /** The library's size: bytes of its assets (each asset counts its file) and their number. */
  async usage(accountId: string): Promise<AssetUsage> {
    return usageOf(await this.db.query(USAGE, [accountId]));
  }
}

function holderOf(raw: Record<string, unknown>): IdempotencyHolder {
  return {
    keyId: raw['key_id'] as string,
    fingerprint: raw['fingerprint'] as string,
    assetId: raw['asset_id'] as string,
  };
}
