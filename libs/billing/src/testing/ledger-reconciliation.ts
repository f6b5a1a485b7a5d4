import type { Database } from '@gen/persistence';
import { EXTERNAL_BUCKET, SPENT_BUCKET, holdBucket, sourceBucket } from '../domain/ledger-buckets';

export interface AccountBook {
  /** Every ledger bucket of the account and its balance (money in minus money out). */
  readonly buckets: Map<string, bigint>;
  readonly sources: { id: string; amountE9: bigint; remainingE9: bigint }[];
  readonly holds: {
    id: string;
    keyId: string;
    day: string;
    status: string;
    amountE9: bigint;
    chargedE9: bigint | null;
  }[];
  /** Outstanding holds: reserved or confirmed. */
  readonly heldE9: bigint;
  readonly spentE9: bigint;
  readonly creditedE9: bigint;
}

export async function readBook(database: Database, accountId: string): Promise<AccountBook> {
  const entries = await database.query<{ bucket: string; balance: string }>(
    `SELECT "bucket", sum("delta")::text AS "balance" FROM (
       SELECT "to_account" AS "bucket", "amount_e9" AS "delta" FROM "billing"."ledger_entries" WHERE "account_id" = $1
       UNION ALL
       SELECT "from_account", -"amount_e9" FROM "billing"."ledger_entries" WHERE "account_id" = $1) AS "moves"
     GROUP BY "bucket"`,
    [accountId],
  );
  const sources = await database.query<{ id: string; amount: string; remaining: string }>(
    `SELECT "id", "amount_e9"::text AS "amount", "remaining_e9"::text AS "remaining"
     FROM "billing"."funding_sources" WHERE "account_id" = $1`,
    [accountId],
  );
  const holds = await database.query<{
    id: string;
    key_id: string;
    day: string;
    status: string;
    amount: string;
    charged: string | null;
  }>(
    `SELECT "id", "key_id", "day"::text AS "day", "status", "amount_e9"::text AS "amount", "charged_e9"::text AS "charged"
     FROM "billing"."holds" WHERE "account_id" = $1`,
    [accountId],
  );
  const outstanding = (status: string) => status === 'reserved' || status === 'confirmed';
  const book = {
    buckets: new Map(entries.map((e) => [e.bucket, BigInt(e.balance)])),
    sources: sources.map((s) => ({ id: s.id, amountE9: BigInt(s.amount), remainingE9: BigInt(s.remaining) })),
    holds: holds.map((h) => ({
      id: h.id,
      keyId: h.key_id,
      day: h.day,
      status: h.status,
      amountE9: BigInt(h.amount),
      chargedE9: h.charged === null ? null : BigInt(h.charged),
    })),
  };
  return {
    ...book,
    heldE9: book.holds.filter((h) => outstanding(h.status)).reduce((sum, h) => sum + h.amountE9, 0n),
    spentE9: book.holds.reduce((sum, h) => sum + (h.chargedE9 ?? 0n), 0n),
    creditedE9: book.sources.reduce((sum, s) => sum + s.amountE9, 0n),
  };
}

/**
 * Every invariant of the ledger for one account, as a list of violations (empty when it reconciles):
 * balance(source:X) = remaining of X, in [0, amount]; balance(hold:H) = what H still holds; balance(spent) =
 * the sum of charges; balance(external) = minus everything credited; all buckets sum to zero; the
 * allocations of each hold add up to its amount; each key's daily spend = outstanding + charged of its holds.
 */
export async function reconcile(database: Database, accountId: string): Promise<string[]> {
  const book = await readBook(database, accountId);
  const problems: string[] = [];
  const expect = (what: string, actual: bigint, expected: bigint) => {
    if (actual !== expected) problems.push(`${what}: ${actual} != ${expected}`);
  };
  const balance = (bucket: string) => book.buckets.get(bucket) ?? 0n;
  const known = new Set<string>([EXTERNAL_BUCKET, SPENT_BUCKET]);
  for (const s of book.sources) {
    known.add(sourceBucket(s.id));
    expect(`balance(${sourceBucket(s.id)})`, balance(sourceBucket(s.id)), s.remainingE9);
    if (s.remainingE9 < 0n || s.remainingE9 > s.amountE9) problems.push(`${s.id} remaining ${s.remainingE9}`);
  }
  for (const h of book.holds) {
    known.add(holdBucket(h.id));
    const outstanding = h.status === 'reserved' || h.status === 'confirmed';
    expect(`balance(${holdBucket(h.id)})`, balance(holdBucket(h.id)), outstanding ? h.amountE9 : 0n);
    if (outstanding !== (h.chargedE9 === null)) problems.push(`${h.id} ${h.status} charged ${h.chargedE9}`);
    if (h.status === 'released' && h.chargedE9 !== 0n) problems.push(`${h.id} released with a charge`);
  }
  for (const bucket of book.buckets.keys()) if (!known.has(bucket)) problems.push(`unknown bucket ${bucket}`);
  expect('balance(spent)', balance(SPENT_BUCKET), book.spentE9);
  expect('balance(external)', balance(EXTERNAL_BUCKET), -book.creditedE9);
  expect(
    'sum of all buckets',
    [...book.buckets.values()].reduce((a, b) => a + b, 0n),
    0n,
  );
  const remaining = book.sources.reduce((sum, s) => sum + s.remainingE9, 0n);
  expect('remaining + held + spent', remaining + book.heldE9 + book.spentE9, book.creditedE9);

  const allocations = await database.query<{ hold_id: string; total: string }>(
    `SELECT a."hold_id", sum(a."amount_e9")::text AS "total" FROM "billing"."hold_allocations" a
     JOIN "billing"."holds" h ON h."id" = a."hold_id" WHERE h."account_id" = $1 GROUP BY a."hold_id"`,
    [accountId],
  );
  const allocated = new Map(allocations.map((a) => [a.hold_id, BigInt(a.total)]));
  for (const h of book.holds) expect(`allocations of ${h.id}`, allocated.get(h.id) ?? 0n, h.amountE9);

  const expectedSpend = new Map<string, bigint>();
  for (const h of book.holds) {
    const key = `${h.keyId}|${h.day}`;
    const counted = h.status === 'reserved' || h.status === 'confirmed' ? h.amountE9 : (h.chargedE9 ?? 0n);
    expectedSpend.set(key, (expectedSpend.get(key) ?? 0n) + counted);
  }
  const spend = await database.query<{ key_id: string; day: string; amount: string }>(
    `SELECT "key_id", "day"::text AS "day", "amount_e9"::text AS "amount" FROM "billing"."key_daily_spend"
     WHERE "key_id" = ANY($1::text[])`,
    [[...new Set(book.holds.map((h) => h.keyId))]],
  );
  for (const row of spend) {
    expect(
      `key_daily_spend(${row.key_id}, ${row.day})`,
      BigInt(row.amount),
      expectedSpend.get(`${row.key_id}|${row.day}`) ?? 0n,
    );
    expectedSpend.delete(`${row.key_id}|${row.day}`);
  }
  for (const [key, amount] of expectedSpend)
    if (amount !== 0n) problems.push(`no daily spend row for ${key}`);
  return problems;
}
