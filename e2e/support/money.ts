import { parseUsd } from '@gen/core';
import type { ApiClient } from './load';
import { Client } from 'pg';

/** What `checkMoney` found: every broken rule as a sentence (none when the books balance), and counts. */
export interface MoneyReport {
  /** One line per broken rule, naming the account, source, hold or task; empty when everything holds. */
  readonly violations: string[];
  readonly accounts: number;
  readonly holds: { readonly open: number; readonly settled: number; readonly released: number };
  /** Holds still open (reserved or confirmed) whose task row does not exist: the sweeper's to release. */
  readonly openWithoutTask: string[];
}

/** For every account: wallet (what its sources have left) = credits - settled charges - open holds. */
const ACCOUNTS = `
  WITH "s" AS (
    SELECT "account_id", sum("amount_e9") AS "credited", sum("remaining_e9") AS "remaining"
    FROM "billing"."funding_sources" GROUP BY "account_id"
  ), "h" AS (
    SELECT "account_id",
           coalesce(sum("charged_e9") FILTER (WHERE "status" = 'settled'), 0) AS "charged",
           coalesce(sum("amount_e9") FILTER (WHERE "status" IN ('reserved', 'confirmed')), 0) AS "open"
    FROM "billing"."holds" GROUP BY "account_id"
  ), "c" AS (
    SELECT "account_id", sum("amount_e9") AS "credits"
    FROM "billing"."ledger_entries" WHERE "from_account" = 'external' GROUP BY "account_id"
  )
  SELECT coalesce("s"."account_id", "h"."account_id") AS "account",
         coalesce("s"."credited", 0)::text AS "credited", coalesce("c"."credits", 0)::text AS "credits",
         coalesce("s"."remaining", 0)::text AS "wallet",
         coalesce("h"."charged", 0)::text AS "charged", coalesce("h"."open", 0)::text AS "open"
  FROM "s" FULL JOIN "h" ON "h"."account_id" = "s"."account_id"
  LEFT JOIN "c" ON "c"."account_id" = coalesce("s"."account_id", "h"."account_id")`;

/** Every funding source's `remaining_e9` is its ledger balance (what came in minus what went out). */
const SOURCES = `
  SELECT "s"."id", "s"."remaining_e9"::text AS "remaining",
         (coalesce((SELECT sum("amount_e9") FROM "billing"."ledger_entries" WHERE "to_account" = 'source:' || "s"."id"), 0)
          - coalesce((SELECT sum("amount_e9") FROM "billing"."ledger_entries" WHERE "from_account" = 'source:' || "s"."id"), 0)
         )::text AS "ledger"
  FROM "billing"."funding_sources" "s"`;

/** Each hold with what the ledger moved for it, by kind, and what its allocations took. */
const HOLDS = `
  SELECT "h"."id", "h"."status", "h"."amount_e9"::text AS "amount", "h"."charged_e9"::text AS "charged_e9",
         ("h"."finished_at" IS NOT NULL) AS "finished",
         coalesce(sum("l"."amount_e9") FILTER (WHERE "l"."entry_type" = 'hold.reserve'), 0)::text AS "reserve",
         coalesce(sum("l"."amount_e9") FILTER (WHERE "l"."entry_type" = 'hold.charge'), 0)::text AS "charge",
         coalesce(sum("l"."amount_e9") FILTER (WHERE "l"."entry_type" = 'hold.return'), 0)::text AS "return",
         coalesce(sum("l"."amount_e9") FILTER (WHERE "l"."entry_type" = 'hold.release'), 0)::text AS "release",
         coalesce(sum("l"."amount_e9") FILTER (WHERE "l"."to_account" = 'hold:' || "h"."id"), 0)::text AS "into_hold",
         coalesce(sum("l"."amount_e9") FILTER (WHERE "l"."from_account" = 'hold:' || "h"."id"), 0)::text AS "out_of_hold",
         (SELECT coalesce(sum("a"."amount_e9"), 0) FROM "billing"."hold_allocations" "a"
          WHERE "a"."hold_id" = "h"."id")::text AS "allocated",
         EXISTS (SELECT 1 FROM "tasks"."tasks" "t" WHERE "t"."id" = "h"."id") AS "has_task"
  FROM "billing"."holds" "h"
  LEFT JOIN "billing"."ledger_entries" "l" ON "l"."hold_id" = "h"."id"
  GROUP BY "h"."id"`;

/** Tasks that ended and say they were settled, with their hold: its status and charge must match the task's. */
const TASKS = `
  SELECT "t"."id", "t"."state", "t"."cost_e9"::text AS "cost", "h"."status", "h"."charged_e9"::text AS "charged"
  FROM "tasks"."tasks" "t" LEFT JOIN "billing"."holds" "h" ON "h"."id" = "t"."id"
  WHERE "t"."settled"`;

/**
 * The money invariant, read with SQL from the billing schema (docs/billing.md, "Ledger"), so that a fault test
 * can end by proving no money appeared, vanished or moved twice:
 *
 * - for every account, wallet = credits - settled charges - open holds, where the wallet is what the
 *   account's funding sources have left, credits what entered them (sources and `external` ledger rows agree),
 *   settled charges the `charged_e9` of its settled holds and open holds the amounts of those reserved or
 *   confirmed;
 * - every funding source's `remaining_e9` is its ledger balance;
 * - every hold took its amount once (`hold.reserve` rows = allocations = amount) and is in exactly one of
 *   three states: open (nothing moved out of it, not finished), settled once (`hold.charge` rows = its
 *   `charged_e9`, `hold.return` rows = the rest, no release) or released once (`hold.release` rows = its
 *   amount, no charge);
 * - every task that says it was settled has a final hold charging exactly the task's cost.
 */
export async function checkMoney(databaseUrl: string): Promise<MoneyReport> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const violations: string[] = [];
    const accounts = (await client.query<Record<string, string>>(ACCOUNTS)).rows;
    for (const a of accounts) {
      const [credited, credits, wallet, charged, open] = [
        a['credited'],
        a['credits'],
        a['wallet'],
        a['charged'],
        a['open'],
      ].map((v) => BigInt(v!));
      if (credited !== credits)
        violations.push(`account ${a['account']}: sources brought ${credited}, ledger credits ${credits}`);
      if (wallet !== credits! - charged! - open!)
        violations.push(
          `account ${a['account']}: wallet ${wallet} != credits ${credits} - charged ${charged} - open holds ${open}`,
        );
    }
    for (const s of (await client.query<Record<string, string>>(SOURCES)).rows) {
      if (s['remaining'] !== s['ledger'])
        violations.push(`source ${s['id']}: remaining ${s['remaining']}, ledger balance ${s['ledger']}`);
    }
    const holds = { open: 0, settled: 0, released: 0 };
    const openWithoutTask: string[] = [];
    for (const h of (await client.query<Record<string, string | boolean | null>>(HOLDS)).rows) {
      const n = (name: string): bigint => BigInt(h[name] as string);
      const id = `hold ${String(h['id'])} (${String(h['status'])})`;
      const amount = n('amount');
      if (n('reserve') !== amount || n('allocated') !== amount || n('into_hold') !== amount)
        violations.push(
          `${id}: amount ${amount}, reserved ${n('reserve')}, allocated ${n('allocated')}, moved in ${n('into_hold')}`,
        );
      const moved = { charge: n('charge'), return: n('return'), release: n('release') };
      if (moved.charge + moved.return + moved.release !== n('out_of_hold'))
        violations.push(`${id}: a ledger row leaves the hold under another entry type`);
      switch (h['status']) {
        case 'reserved':
        case 'confirmed':
          holds.open += 1;
          if (!h['has_task']) openWithoutTask.push(String(h['id']));
          if (n('out_of_hold') !== 0n || h['charged_e9'] !== null || h['finished'])
            violations.push(`${id}: open, yet ${n('out_of_hold')} moved out of it or it is marked finished`);
          break;
        case 'settled': {
          holds.settled += 1;
          const charged = h['charged_e9'] === null ? -1n : BigInt(h['charged_e9'] as string);
          if (moved.charge !== charged || moved.return !== amount - charged || moved.release !== 0n)
            violations.push(
              `${id}: charged_e9 ${charged}, ledger charged ${moved.charge}, returned ${moved.return}, released ${moved.release}`,
            );
          if (!h['finished']) violations.push(`${id}: settled without finished_at`);
          break;
        }
        case 'released':
          holds.released += 1;
          if (moved.release !== amount || moved.charge !== 0n || moved.return !== 0n)
            violations.push(
              `${id}: ledger released ${moved.release}, charged ${moved.charge}, returned ${moved.return}`,
            );
          if (!h['finished'] || h['charged_e9'] !== '0')
            violations.push(`${id}: released without finished_at or with a charge`);
          break;
        default:
          violations.push(`${id}: unknown status`);
      }
    }
    for (const t of (await client.query<Record<string, string | null>>(TASKS)).rows) {
      const cost = t['cost'] ?? '0';
      const expected = cost === '0' ? ['settled', 'released'] : ['settled'];
      if (!expected.includes(t['status'] ?? 'missing') || (t['charged'] ?? '0') !== cost)
        violations.push(
          `task ${t['id']} (${t['state']}, settled, cost ${cost}): hold ${t['status'] ?? 'missing'} charged ${t['charged'] ?? '-'}`,
        );
    }
    return { violations, accounts: accounts.length, holds, openWithoutTask };
  } finally {
    await client.end();
  }
}

/** An account's balance as `GET /api/v1/chat/credit` answers it, in nano-USD. */
export interface Balance {
  readonly available: bigint;
  readonly held: bigint;
}

/** The balance of the key `api` calls with (its `credit` route). */
export async function balanceOf(api: ApiClient): Promise<Balance> {
  const { json } = await api.call('credit', 'GET', '/api/v1/chat/credit');
  return { available: parseUsd(json['data']['available'])!, held: parseUsd(json['data']['held'])! };
}

/**
 * Tasks of one price, each charged once: every record shows the same cost, nothing is left held, and the
 * balance fell by exactly that cost times the number of tasks.
 */
export function expectChargedOnceEach(
  records: readonly Record<string, unknown>[],
  before: Balance,
  after: Balance,
) {
  const cost = parseUsd(records[0]!['cost'] as string)!;
  expect(records.every((r) => r['cost'] === records[0]!['cost'])).toBe(true);
  expect(after.held).toBe(0n);
  expect(before.available - after.available).toBe(cost * BigInt(records.length));
}
