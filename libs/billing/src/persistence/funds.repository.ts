import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, rowOptionalDate, type Database } from '@gen/persistence';
import { EXTERNAL_BUCKET, sourceBucket } from '../domain/ledger-buckets';
import { BillingPrisma } from './billing-prisma';

export interface FundingSourceRow {
  readonly id: string;
  readonly kind: string;
  readonly model: string | null;
  readonly remainingE9: bigint;
  readonly expiresAt: Date | null;
}

/** Data access of the billing schema; every read is scoped by account id. */
@Injectable()
export class FundsRepository {
  constructor(
    private readonly prisma: BillingPrisma,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  /** Adds a funding source and its ledger entry (external -> source) in one transaction. */
  async addSource(row: {
    id: string;
    ledgerId: string;
    accountId: string;
    kind: string;
    model: string | null;
    amountE9: bigint;
    expiresAt: Date | null;
  }): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.fundingSource.create({
        data: {
          id: row.id,
          accountId: row.accountId,
          kind: row.kind,
          model: row.model,
          amountE9: row.amountE9,
          remainingE9: row.amountE9,
          expiresAt: row.expiresAt,
        },
      }),
      this.prisma.ledgerEntry.create({
        data: {
          id: row.ledgerId,
          accountId: row.accountId,
          sourceId: row.id,
          entryType: `credit.${row.kind}`,
          fromAccount: EXTERNAL_BUCKET,
          toAccount: sourceBucket(row.id),
          amountE9: row.amountE9,
        },
      }),
    ]);
  }

  /** Funding sources with money left that have not expired at `now`. */
  liveSources(accountId: string, now: Date): Promise<FundingSourceRow[]> {
    return this.prisma.fundingSource.findMany(this.liveSourcesQuery(accountId, now));
  }

  /** The live sources and the sum of outstanding holds (reserved or confirmed), read in one snapshot. */
  /**
   * The live funding sources and the sum of outstanding holds, in one statement: one snapshot (a hold never
   * counts twice nor goes missing between the two) and one round trip for the hottest balance read.
   */
  async sourcesAndHeld(
    accountId: string,
    now: Date,
  ): Promise<{ sources: FundingSourceRow[]; heldE9: bigint }> {
    const rows = await this.database.query<Record<string, unknown>>(
      `SELECT h."held"::text AS "held", s."id", s."kind", s."model", s."remaining_e9"::text AS "remaining",
              s."expires_at"
       FROM (SELECT COALESCE(SUM("amount_e9"), 0) AS "held" FROM "billing"."holds"
             WHERE "account_id" = $1 AND "status" IN ('reserved', 'confirmed')) AS h
       LEFT JOIN "billing"."funding_sources" AS s
         ON s."account_id" = $1 AND s."remaining_e9" > 0 AND (s."expires_at" IS NULL OR s."expires_at" > $2)
       ORDER BY s."created_at", s."id"`,
      [accountId, now],
    );
    const sources = rows
      .filter((r) => r['id'] !== null)
      .map((r) => ({
        id: r['id'] as string,
        kind: r['kind'] as string,
        model: (r['model'] as string | null) ?? null,
        remainingE9: BigInt(r['remaining'] as string),
        expiresAt: rowOptionalDate(r['expires_at']),
      }));
    return { sources, heldE9: BigInt((rows[0]?.['held'] as string | undefined) ?? '0') };
  }

  private liveSourcesQuery(accountId: string, now: Date) {
    return {
      where: { accountId, remainingE9: { gt: 0n }, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      orderBy: { createdAt: 'asc' as const },
      select: { id: true, kind: true, model: true, remainingE9: true, expiresAt: true },
    };
  }
}
