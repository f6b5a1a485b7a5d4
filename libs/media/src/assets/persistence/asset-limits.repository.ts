import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '@gen/persistence';
import type { AssetPlanName, AssetPlanSetting } from '../domain/asset-plans';
import { AssetsMigrations } from './assets-schema';

const TABLE = '"assets"."account_limits"';

/** Each account's asset plan and limit overrides, as operators set them. */
@Injectable()
export class AssetLimitsRepository {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    readonly migrations: AssetsMigrations,
  ) {}

  /** The account's setting; null when nobody set one (the default plan then). */
  async find(accountId: string): Promise<AssetPlanSetting | null> {
    const rows = await this.db.query(
      `SELECT "plan", "bytes_limit", "count_limit" FROM ${TABLE} WHERE "account_id" = $1`,
      [accountId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      plan: row['plan'] as AssetPlanName,
      bytesLimit: row['bytes_limit'] === null ? null : Number(row['bytes_limit']),
      countLimit: row['count_limit'] === null ? null : Number(row['count_limit']),
    };
  }

  /** Replaces the account's setting. */
  async put(accountId: string, setting: AssetPlanSetting, now: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO ${TABLE} ("account_id", "plan", "bytes_limit", "count_limit", "updated_at")
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("account_id") DO UPDATE SET
         "plan" = EXCLUDED."plan", "bytes_limit" = EXCLUDED."bytes_limit",
         "count_limit" = EXCLUDED."count_limit", "updated_at" = EXCLUDED."updated_at"`,
      [accountId, setting.plan, setting.bytesLimit, setting.countLimit, now],
    );
  }
}
