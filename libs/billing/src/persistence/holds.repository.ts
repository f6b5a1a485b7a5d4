import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, eventTopic, HoldEventType, type HoldStatus } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { DATABASE, GroupCommit, type Database } from '@gen/persistence';
import type { EventCause, FinishedHold, HoldRecord } from '../domain/hold';
import { OutboxSignal } from '@gen/messaging';
import { activeTraceparent } from '@gen/observability';

export interface ReserveRow {
  readonly holdId: string;
  readonly accountId: string;
  readonly keyId: string;
  readonly model: string;
  readonly amountE9: bigint;
  readonly capE9: bigint;
  /** The UTC day the reserve counts against, `YYYY-MM-DD`. */
  readonly day: string;
  readonly now: Date;
  readonly expiresAt: Date;
  /** Base of the ids of the ledger rows written (`<base>_001`, `<base>_002`, ...). */
  readonly ledgerId: string;
}

/** The id, time and cause of the event a settle or release writes. */
export interface FinalEventMeta {
  readonly id: string;
  readonly occurredAt: Date;
  readonly cause?: EventCause;
  /** The trace context to store in the envelope (tracing on); `finish` takes the active one. */
  readonly traceparent?: string;
}

/**
 * The envelope an outbox row stores, `built` (SQL of a json value), with its trace context `traceparent` (SQL of a
 * text value) when there is one (tracing on: see outboxEnvelope in @gen/messaging).
 */
const withTraceparent = (built: string, traceparent: string): string =>
  `CASE WHEN ${traceparent} IS NULL THEN ${built}
   ELSE (${built}::jsonb || jsonb_build_object('traceparent', ${traceparent}))::json END`;

export interface FinishRow {
  readonly holdId: string;
  /** The charge to settle; null releases everything. */
  readonly chargeE9: bigint | null;
  /** Only a `reserved` hold whose expiry has passed at `now` (the sweeper). */
  readonly staleOnly: boolean;
  readonly now: Date;
  readonly ledgerId: string;
}

interface HoldSqlRow {
  hold_status: HoldStatus;
  hold_amount_e9: string;
  hold_charged_e9: string | null;
}

const optionalBigint = (value: string | null): bigint | null => (value === null ? null : BigInt(value));
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export type ReservedHold = HoldRecord & { readonly created: boolean };

/** A reserve_hold result row as the record callers get. */
function reservedOf(
  holdId: string,
  hold: (HoldSqlRow & { hold_created: boolean }) | undefined,
): ReservedHold {
  if (!hold) throw new Error(`reserve_hold returned nothing for ${holdId}`);
  return {
    holdId,
    status: hold.hold_status,
    amountE9: BigInt(hold.hold_amount_e9),
    chargedE9: optionalBigint(hold.hold_charged_e9),
    created: hold.hold_created,
  };
}

/** SQLSTATEs raised by billing.reserve_hold (see the holds migration). */
const REFUSALS: Record<string, () => DomainError> = {
  GB401: () => new DomainError(BusinessCode.InsufficientBalance, 'balance.insufficient'),
  GB402: () => new DomainError(BusinessCode.SpendCapReached, 'spend_cap.reached'),
};

/**
 * The hot paths of holds in raw SQL on the process's database: reserve is one statement (the function
 * billing.reserve_hold), settle and release one function call plus the outbox row, in one transaction.
 */
@Injectable()
export class HoldsRepository {
  /** Confirms arrive with every created task: those that come together share a statement. */
  private readonly confirms = new GroupCommit<string, HoldRecord | null>({
    many: (holdIds) => this.confirmMany(holdIds),
    keyOf: (holdId) => holdId,
  });

  /**
   * Reserves arrive with every accepted task, and most of one busy account's land on the same funding source
   * and key rows: one after the other, each would hold those row locks through its own commit. Those that come
   * together share one statement, so the rows are locked and flushed once per group. A refusal fails the group's
   * statement, and then each reserve of it is tried alone (GroupCommit), so only the refused one is refused.
   */
  private readonly reserves = new GroupCommit<ReserveRow, ReservedHold>({
    many: (rows) => this.reserveMany(rows),
    one: (row) => this.reserveOne(row),
    keyOf: (row) => row.holdId,
  });

  /** Settlements likewise: they lock the same rows as reserves (see `reserves`). */
  private readonly finishes = new GroupCommit<
    { readonly row: FinishRow; readonly event: FinalEventMeta | null },
    FinishedHold | null
  >({
    many: (inputs) => this.finishMany(inputs),
    one: ({ row, event }) => this.finishOne(row, event),
    keyOf: ({ row }) => row.holdId,
  });

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly outboxSignal: OutboxSignal,
  ) {}

  /** Throws DomainError 40201 / 40202 when refused; then nothing changed. Group-committed (see `reserves`). */
  reserve(row: ReserveRow): Promise<ReservedHold> {
    return this.reserves.run(row);
  }

  /**
   * Several reserves in one statement. The rows are taken in account and key order, so that two groups (of two
   * processes) lock shared rows in the same order; any refusal fails the whole statement.
   */
  private async reserveMany(rows: readonly ReserveRow[]): Promise<ReservedHold[]> {
    const ordered = [...rows].sort((a, b) =>
      a.accountId === b.accountId ? compare(a.keyId, b.keyId) : compare(a.accountId, b.accountId),
    );
    const results = await this.database.query<HoldSqlRow & { hold_id: string; hold_created: boolean }>(
      `SELECT r."hold_id", h."hold_status", h."hold_amount_e9"::text AS "hold_amount_e9",
              h."hold_charged_e9"::text AS "hold_charged_e9", h."hold_created"
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::date[],
                   $8::timestamptz[], $9::timestamptz[], $10::text[])
            WITH ORDINALITY AS r("hold_id", "account_id", "key_id", "model", "amount_e9", "cap_e9", "day", "now",
                                 "expires_at", "ledger_id", "n")
       CROSS JOIN LATERAL "billing"."reserve_hold"(r."hold_id", r."account_id", r."key_id", r."model",
            r."amount_e9", r."cap_e9", r."day", r."now", r."expires_at", r."ledger_id") AS h
       ORDER BY r."n"`,
      [
        ordered.map((r) => r.holdId),
        ordered.map((r) => r.accountId),
        ordered.map((r) => r.keyId),
        ordered.map((r) => r.model),
        ordered.map((r) => r.amountE9.toString()),
        ordered.map((r) => r.capE9.toString()),
        ordered.map((r) => r.day),
        ordered.map((r) => r.now.toISOString()),
        ordered.map((r) => r.expiresAt.toISOString()),
        ordered.map((r) => r.ledgerId),
      ],
    );
    const byId = new Map(results.map((hold) => [hold.hold_id, hold]));
    return rows.map((row) => reservedOf(row.holdId, byId.get(row.holdId)));
  }

  private async reserveOne(row: ReserveRow): Promise<ReservedHold> {
    let rows: (HoldSqlRow & { hold_created: boolean })[];
    try {
      rows = await this.database.query(
        `SELECT "hold_status", "hold_amount_e9"::text AS "hold_amount_e9",
                "hold_charged_e9"::text AS "hold_charged_e9", "hold_created"
         FROM "billing"."reserve_hold"($1, $2, $3, $4, $5::bigint, $6::bigint, $7::date, $8::timestamptz,
                                       $9::timestamptz, $10)`,
        [
          row.holdId,
          row.accountId,
          row.keyId,
          row.model,
          row.amountE9.toString(),
          row.capE9.toString(),
          row.day,
          row.now.toISOString(),
          row.expiresAt.toISOString(),
          row.ledgerId,
        ],
      );
    } catch (error) {
      const refusal = REFUSALS[(error as { code?: string }).code ?? ''];
      throw refusal ? refusal() : error;
    }
    return reservedOf(row.holdId, rows[0]);
  }

  /** What a reserve would see now: the live funds usable for `model`, and the key's spend of `day`. */
  async fundsAndSpend(q: {
    accountId: string;
    keyId: string;
    model: string;
    day: string;
    now: Date;
  }): Promise<{ availableE9: bigint; spentE9: bigint }> {
    const [row] = await this.database.query<{ available: string; spent: string | null }>(
      `SELECT
         (SELECT COALESCE(sum("remaining_e9"), 0)::text FROM "billing"."funding_sources"
          WHERE "account_id" = $1 AND "remaining_e9" > 0 AND ("expires_at" IS NULL OR "expires_at" > $3::timestamptz)
            AND ("kind" <> 'grant' OR "model" = $2)) AS "available",
         (SELECT "amount_e9"::text FROM "billing"."key_daily_spend" WHERE "key_id" = $4 AND "day" = $5::date) AS "spent"`,
      [q.accountId, q.model, q.now.toISOString(), q.keyId, q.day],
    );
    return { availableE9: BigInt(row?.available ?? '0'), spentE9: BigInt(row?.spent ?? '0') };
  }

  /** Each key's spend of `day` (holds outstanding and settled charges of that day's holds); absent: none. */
  async spentOn(keyIds: readonly string[], day: string): Promise<Map<string, bigint>> {
    const rows = await this.database.query<{ key_id: string; amount_e9: string }>(
      `SELECT "key_id", "amount_e9"::text AS "amount_e9" FROM "billing"."key_daily_spend"
       WHERE "key_id" = ANY($1::text[]) AND "day" = $2::date`,
      [keyIds, day],
    );
    return new Map(rows.map((row) => [row.key_id, BigInt(row.amount_e9)]));
  }

  /**
   * reserved -> confirmed; any other status is left alone. Null for an unknown hold. Group-committed: holds
   * confirmed at the same time share one statement.
   */
  confirm(holdId: string): Promise<HoldRecord | null> {
    return this.confirms.run(holdId);
  }

  /** Confirms several holds in one statement (billing.confirm_holds, which locks them in id order). */
  private async confirmMany(holdIds: readonly string[]): Promise<(HoldRecord | null)[]> {
    const rows = await this.database.query<HoldSqlRow & { hold_id: string }>(
      `SELECT "hold_id", "hold_status", "hold_amount_e9"::text AS "hold_amount_e9",
              "hold_charged_e9"::text AS "hold_charged_e9"
       FROM "billing"."confirm_holds"($1::text[])`,
      [holdIds],
    );
    const byId = new Map(rows.map((row) => [row.hold_id, row]));
    return holdIds.map((holdId) => {
      const row = byId.get(holdId);
      return row
        ? {
            holdId,
            status: row.hold_status,
            amountE9: BigInt(row.hold_amount_e9),
            chargedE9: optionalBigint(row.hold_charged_e9),
          }
        : null;
    });
  }

  /**
   * Settles or releases a hold (billing.finish_hold) and, when that changed it, writes its `hold.settled` /
   * `hold.released` event (an EventEnvelope<HoldFinalPayload>, version 1, keyed by the hold id) to billing's outbox: one statement, so one
   * transaction and one round trip, and no row lock held while the client is away. Null for an unknown hold.
   * With `event` null no event is written (a quiet finish: the caller records the outcome itself).
   *
   * The one producer that does not build its events with `newEvent`: the payload (the charge the database
   * function applied) only exists inside the statement. Its type, version and payload shape are pinned to the
   * event map by a test that checks every event it writes (`task-lifecycle.consumer.spec.ts`, `checkEvent`),
   * and consumers check them again like any event.
   */
  finish(row: FinishRow, event: FinalEventMeta | null): Promise<FinishedHold | null> {
    if (event === null) return this.finishes.run({ row, event });
    // Taken now, in the caller's context: a group of finishes runs in its first caller's.
    const traceparent = event.traceparent ?? activeTraceparent();
    return this.finishes.run({ row, event: traceparent ? { ...event, traceparent } : event });
  }

  /** Several settlements or releases in one statement, each with its event if it has one (see `finishOne`). */
  private async finishMany(
    inputs: readonly { readonly row: FinishRow; readonly event: FinalEventMeta | null }[],
  ): Promise<(FinishedHold | null)[]> {
    const results = await this.database.query<
      HoldSqlRow & { hold_id: string; hold_account_id: string; applied: boolean }
    >(
      `WITH "f" AS (
         SELECT i.*, f.* FROM unnest($1::text[], $2::bigint[], $3::boolean[], $4::timestamptz[], $5::text[],
                                     $6::text[], $7::text[], $8::text[], $9::text[], $13::text[])
              WITH ORDINALITY AS i("id", "charge_e9", "stale_only", "now", "ledger_id", "event_id", "occurred_at",
                                   "correlation_id", "causation_id", "traceparent", "n")
         CROSS JOIN LATERAL "billing"."finish_hold"(i."id", i."charge_e9", i."stale_only", i."now", i."ledger_id") AS f
       ), "event" AS (
         INSERT INTO "billing"."outbox" ("id", "topic", "key", "envelope")
         SELECT "f"."event_id", $10, "f"."id", ${withTraceparent(
           `json_build_object(
           'id', "f"."event_id",
           'type', CASE WHEN "f"."hold_status" = 'settled' THEN $11::text ELSE $12::text END,
           'version', 1,
           'key', "f"."id",
           'occurredAt', "f"."occurred_at",
           'correlationId', "f"."correlation_id",
           'causationId', "f"."causation_id",
           'payload', json_build_object(
             'holdId', "f"."id",
             'accountId', "f"."hold_account_id",
             'charged', trim_scale(COALESCE("f"."hold_charged_e9", 0)::numeric / 1000000000)::text
           )
         )`,
           '"f"."traceparent"',
         )}
         FROM "f" WHERE "f"."applied" AND "f"."event_id" IS NOT NULL ORDER BY "f"."n"
       )
       SELECT "id" AS "hold_id", "hold_status", "hold_amount_e9"::text AS "hold_amount_e9",
              "hold_charged_e9"::text AS "hold_charged_e9", "hold_account_id", "applied"
       FROM "f"`,
      [
        inputs.map(({ row }) => row.holdId),
        inputs.map(({ row }) => row.chargeE9?.toString() ?? null),
        inputs.map(({ row }) => row.staleOnly),
        inputs.map(({ row }) => row.now.toISOString()),
        inputs.map(({ row }) => row.ledgerId),
        inputs.map(({ event }) => event?.id ?? null),
        inputs.map(({ event }) => event?.occurredAt.toISOString() ?? null),
        inputs.map(({ row, event }) => event?.cause?.correlationId ?? row.holdId),
        inputs.map(({ row, event }) => event?.cause?.causationId ?? row.holdId),
        eventTopic(HoldEventType.settled),
        HoldEventType.settled,
        HoldEventType.released,
        inputs.map(({ event }) => event?.traceparent ?? null),
      ],
    );
    const announced = new Set(inputs.filter(({ event }) => event !== null).map(({ row }) => row.holdId));
    if (results.some((r) => r.applied && announced.has(r.hold_id))) this.outboxSignal.notify();
    const byId = new Map(results.map((r) => [r.hold_id, r]));
    return inputs.map(({ row }) => {
      const result = byId.get(row.holdId);
      return result
        ? {
            holdId: row.holdId,
            status: result.hold_status,
            amountE9: BigInt(result.hold_amount_e9),
            chargedE9: optionalBigint(result.hold_charged_e9),
            accountId: result.hold_account_id,
            applied: result.applied,
          }
        : null;
    });
  }

  private async finishOne(row: FinishRow, event: FinalEventMeta | null): Promise<FinishedHold | null> {
    const [result] = await this.database.query<HoldSqlRow & { hold_account_id: string; applied: boolean }>(
      `WITH "f" AS (
         SELECT * FROM "billing"."finish_hold"($1, $2::bigint, $3, $4::timestamptz, $5)
       ), "event" AS (
         INSERT INTO "billing"."outbox" ("id", "topic", "key", "envelope")
         SELECT $6, $7, $1, ${withTraceparent(
           `json_build_object(
           'id', $6::text,
           'type', CASE WHEN "f"."hold_status" = 'settled' THEN $8::text ELSE $9::text END,
           'version', 1,
           'key', $1::text,
           'occurredAt', $10::text,
           'correlationId', $11::text,
           'causationId', $12::text,
           'payload', json_build_object(
             'holdId', $1::text,
             'accountId', "f"."hold_account_id",
             'charged', trim_scale(COALESCE("f"."hold_charged_e9", 0)::numeric / 1000000000)::text
           )
         )`,
           '$13::text',
         )}
         FROM "f" WHERE "f"."applied" AND $6::text IS NOT NULL
       )
       SELECT "hold_status", "hold_amount_e9"::text AS "hold_amount_e9",
              "hold_charged_e9"::text AS "hold_charged_e9", "hold_account_id", "applied"
       FROM "f"`,
      [
        row.holdId,
        row.chargeE9?.toString() ?? null,
        row.staleOnly,
        row.now.toISOString(),
        row.ledgerId,
        event?.id ?? null,
        eventTopic(HoldEventType.settled),
        HoldEventType.settled,
        HoldEventType.released,
        event?.occurredAt.toISOString() ?? null,
        event?.cause?.correlationId ?? row.holdId,
        event?.cause?.causationId ?? row.holdId,
        event?.traceparent ?? null,
      ],
    );
    if (!result) return null;
    if (result.applied && event !== null) this.outboxSignal.notify();
    return {
      holdId: row.holdId,
      status: result.hold_status,
      amountE9: BigInt(result.hold_amount_e9),
      chargedE9: optionalBigint(result.hold_charged_e9),
      accountId: result.hold_account_id,
      applied: result.applied,
    };
  }

  /** Ids of `reserved` holds whose expiry has passed at `now`, oldest expiry first. */
  async staleReserves(now: Date, limit: number): Promise<string[]> {
    const rows = await this.database.query<{ id: string }>(
      `SELECT "id" FROM "billing"."holds" WHERE "status" = 'reserved' AND "expires_at" <= $1::timestamptz
       ORDER BY "expires_at" LIMIT $2`,
      [now.toISOString(), limit],
    );
    return rows.map((r) => r.id);
  }

  /**
   * The holds not final yet (`reserved` or `confirmed`): how many, and the nano-USD they hold. One statement
   * over the status index; read on scrape for `/metrics`.
   */
  async openTotals(): Promise<{ holds: number; heldE9: bigint }> {
    const [row] = await this.database.query<{ holds: number | string; held: string }>(
      `SELECT count(*)::int AS "holds", COALESCE(sum("amount_e9"), 0)::text AS "held"
       FROM "billing"."holds" WHERE "status" IN ('reserved', 'confirmed')`,
    );
    return { holds: Number(row?.holds ?? 0), heldE9: BigInt(row?.held ?? '0') };
  }
}
