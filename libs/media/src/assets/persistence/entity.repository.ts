import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, rowDate, rowJson, type Database } from '@gen/persistence';
import type { Entity, EntityImage } from '../domain/entity';
import { AssetsMigrations } from './assets-schema';

const TABLE = '"assets"."entities"';
const COLUMNS = '"id", "account_id", "name", "images", "created_at"';

function rowOf(raw: Record<string, unknown>): Entity {
  return {
    id: raw['id'] as string,
    accountId: raw['account_id'] as string,
    name: raw['name'] as string,
    images: rowJson<EntityImage[]>(raw['images'])!,
    createdAt: rowDate(raw['created_at']),
  };
}

/** Data access of characters. Every query is scoped by the account. */
@Injectable()
export class EntityRepository {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    readonly migrations: AssetsMigrations,
  ) {}

  async create(entity: Entity): Promise<void> {
    await this.db.query(`INSERT INTO ${TABLE} (${COLUMNS}) VALUES ($1, $2, $3, $4::jsonb, $5)`, [
      entity.id,
      entity.accountId,
      entity.name,
      JSON.stringify(entity.images),
      entity.createdAt,
    ]);
  }

  /** One character of the account; null for an unknown id and for another account's alike. */
  async find(accountId: string, id: string): Promise<Entity | null> {
    const rows = await this.db.query(
      `SELECT ${COLUMNS} FROM ${TABLE} WHERE "account_id" = $1 AND "id" = $2`,
      [accountId, id],
    );
    return rows[0] ? rowOf(rows[0]) : null;
  }

  /** A page of the account's characters, oldest first, after the given position (keyset paging). */
  async list(
    accountId: string,
    page: { after?: { createdAt: Date; entityId: string }; limit: number },
  ): Promise<Entity[]> {
    const rows = await this.db.query(
      `SELECT ${COLUMNS} FROM ${TABLE}
       WHERE "account_id" = $1 AND ($2::timestamptz IS NULL OR ("created_at", "id") > ($2::timestamptz, $3::text))
       ORDER BY "created_at", "id" LIMIT $4`,
      [accountId, page.after?.createdAt ?? null, page.after?.entityId ?? null, page.limit],
    );
    return rows.map(rowOf);
  }

  /** Removes one character of the account; false when there was none. */
  async delete(accountId: string, id: string): Promise<boolean> {
    const rows = await this.db.query(
      `DELETE FROM ${TABLE} WHERE "account_id" = $1 AND "id" = $2 RETURNING "id"`,
      [accountId, id],
    );
    return rows.length > 0;
  }
}
