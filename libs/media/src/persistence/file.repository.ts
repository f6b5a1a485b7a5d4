import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, rowDate, rowJson, rowOptionalDate, type Database } from '@gen/persistence';
import type { MessageId, MessageParams } from '@gen/core';
import type { FileSource, FileState, MediaFacts, MediaFile, Refusal } from '../domain/media-file';
import type { MediaType } from '../domain/media-types';
import { MediaMigrations } from './media-schema';

const TABLE = '"media"."files"';
const COLUMNS = `"id", "account_id", "key_id", "state", "source", "content_type", "bytes", "file_name", "temp_key",
  "object_key", "sha256", "width", "height", "duration_seconds", "refusal", "refusal_params", "claimed_until",
  "expires_at", "created_at", "committed_at"`;

const optionalNumber = (value: unknown): number | undefined =>
  value === null || value === undefined ? undefined : Number(value);

function factsOf(raw: Record<string, unknown>): MediaFacts | null {
  if (raw['sha256'] === null || raw['sha256'] === undefined) return null;
  const width = optionalNumber(raw['width']);
  const height = optionalNumber(raw['height']);
  const durationSeconds = optionalNumber(raw['duration_seconds']);
  return {
    sha256: raw['sha256'] as string,
    ...(width !== undefined && height !== undefined ? { width, height } : {}),
    ...(durationSeconds !== undefined ? { durationSeconds } : {}),
  };
}

function rowOf(raw: Record<string, unknown>): MediaFile {
  const refusal = raw['refusal'] as string | null;
  return {
    id: raw['id'] as string,
    accountId: raw['account_id'] as string,
    keyId: raw['key_id'] as string,
    state: raw['state'] as FileState,
    source: raw['source'] as FileSource,
    contentType: raw['content_type'] as MediaType,
    bytes: Number(raw['bytes']),
    fileName: raw['file_name'] as string,
    tempKey: (raw['temp_key'] as string | null) ?? null,
    objectKey: (raw['object_key'] as string | null) ?? null,
    facts: factsOf(raw),
    refusal: refusal
      ? { messageId: refusal as MessageId, params: rowJson<MessageParams>(raw['refusal_params']) ?? {} }
      : null,
    claimedUntil: rowOptionalDate(raw['claimed_until']),
    expiresAt: rowDate(raw['expires_at']),
    createdAt: rowDate(raw['created_at']),
    committedAt: rowOptionalDate(raw['committed_at']),
  };
}

export interface NewFile {
  readonly id: string;
  readonly accountId: string;
  readonly keyId: string;
  readonly source: FileSource;
  readonly contentType: MediaType;
  readonly bytes: number;
  readonly fileName: string;
  readonly tempKey: string;
  readonly expiresAt: Date;
  /** When the retention sweep removes what is left at the temporary key (the end of the commit window). */
  readonly sweepAt: Date;
  readonly now: Date;
}

/** A file whose temporary object is due for removal. */
export interface SweepItem {
  readonly id: string;
  readonly accountId: string;
  readonly state: FileState;
  readonly tempKey: string | null;
}

/** Data access of files. Every query a request makes is scoped by the account. */
@Injectable()
export class FileRepository {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    // Injected so that the schema's migrations have run before the first query.
    readonly migrations: MediaMigrations,
  ) {}

  async insert(file: NewFile): Promise<MediaFile> {
    const rows = await this.db.query(
      `INSERT INTO ${TABLE} ("id", "account_id", "key_id", "state", "source", "content_type", "bytes", "file_name",
         "temp_key", "expires_at", "sweep_at", "created_at")
       VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, $8, $9, $10, $11)
       RETURNING ${COLUMNS}`,
      [
        file.id,
        file.accountId,
        file.keyId,
        file.source,
        file.contentType,
        file.bytes,
        file.fileName,
        file.tempKey,
        file.expiresAt,
        file.sweepAt,
        file.now,
      ],
    );
    return rowOf(rows[0]!);
  }

  /** One file of the account; null for an unknown id and for another account's file alike. */
  async find(accountId: string, id: string): Promise<MediaFile | null> {
    const rows = await this.db.query(
      `SELECT ${COLUMNS} FROM ${TABLE} WHERE "account_id" = $1 AND "id" = $2`,
      [accountId, id],
    );
    return rows[0] ? rowOf(rows[0]) : null;
  }

  /**
   * Takes the right to verify a pending file until `until`: null when it is not pending, its commit window has
   * closed, or another commit holds an unexpired claim. Two concurrent commits: exactly one gets the file.
   */
  async claim(accountId: string, id: string, now: Date, until: Date): Promise<MediaFile | null> {
    const rows = await this.db.query(
      `UPDATE ${TABLE} SET "claimed_until" = $4
       WHERE "account_id" = $1 AND "id" = $2 AND "state" = 'pending' AND "sweep_at" > $3
         AND ("claimed_until" IS NULL OR "claimed_until" <= $3)
       RETURNING ${COLUMNS}`,
      [accountId, id, now, until],
    );
    return rows[0] ? rowOf(rows[0]) : null;
  }

  /** Gives a claim back without a verdict (the bytes were not all there yet). */
  async release(accountId: string, id: string): Promise<void> {
    await this.db.query(
      `UPDATE ${TABLE} SET "claimed_until" = NULL WHERE "account_id" = $1 AND "id" = $2 AND "state" = 'pending'`,
      [accountId, id],
    );
  }

  /** Records a verified file; null when it is no longer pending. */
  async markReady(
    accountId: string,
    id: string,
    result: { facts: MediaFacts; objectKey: string; now: Date },
  ): Promise<MediaFile | null> {
    const { facts } = result;
    const rows = await this.db.query(
      `UPDATE ${TABLE} SET "state" = 'ready', "sha256" = $3, "width" = $4, "height" = $5, "duration_seconds" = $6,
         "object_key" = $7, "committed_at" = $8, "claimed_until" = NULL
       WHERE "account_id" = $1 AND "id" = $2 AND "state" = 'pending'
       RETURNING ${COLUMNS}`,
      [
        accountId,
        id,
        facts.sha256,
        facts.width ?? null,
        facts.height ?? null,
        facts.durationSeconds ?? null,
        result.objectKey,
        result.now,
      ],
    );
    return rows[0] ? rowOf(rows[0]) : null;
  }

  /** Records why a file was refused; null when it is no longer pending. */
  async markRefused(accountId: string, id: string, refusal: Refusal): Promise<MediaFile | null> {
    const rows = await this.db.query(
      `UPDATE ${TABLE} SET "state" = 'refused', "refusal" = $3, "refusal_params" = $4::jsonb, "claimed_until" = NULL
       WHERE "account_id" = $1 AND "id" = $2 AND "state" = 'pending'
       RETURNING ${COLUMNS}`,
      [accountId, id, refusal.messageId, JSON.stringify(refusal.params)],
    );
    return rows[0] ? rowOf(rows[0]) : null;
  }

  /** Files whose commit window has closed and that still have a temporary key, oldest first; none claimed. */
  async dueForSweep(now: Date, limit: number): Promise<SweepItem[]> {
    const rows = await this.db.query(
      `SELECT "id", "account_id", "state", "temp_key" FROM ${TABLE}
       WHERE "sweep_at" <= $1 AND ("claimed_until" IS NULL OR "claimed_until" <= $1)
       ORDER BY "sweep_at" LIMIT $2`,
      [now, limit],
    );
    return rows.map((raw) => ({
      id: raw['id'] as string,
      accountId: raw['account_id'] as string,
      state: raw['state'] as FileState,
      tempKey: (raw['temp_key'] as string | null) ?? null,
    }));
  }

  /**
   * After the temporary object is gone: a file never committed (pending or refused) is deleted; a ready file
   * keeps its row without the temporary key. Unclaimed rows only.
   */
  async finishSweep(id: string, now: Date): Promise<void> {
    await this.db.query(
      `WITH gone AS (
         DELETE FROM ${TABLE} WHERE "id" = $1 AND "state" <> 'ready' AND ("claimed_until" IS NULL OR "claimed_until" <= $2)
         RETURNING "id")
       UPDATE ${TABLE} SET "temp_key" = NULL, "sweep_at" = NULL WHERE "id" = $1 AND "state" = 'ready'`,
      [id, now],
    );
  }
}
