import { Injectable } from '@nestjs/common';
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
  constructor(private readonly prisma: BillingPrisma) {}

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
  async sourcesAndHeld(
    accountId: string,
    now: Date,
  ): Promise<{ sources: FundingSourceRow[]; heldE9: bigint }> {
    const [sources, held] = await this.prisma.$transaction(
      [
        this.prisma.fundingSource.findMany(this.liveSourcesQuery(accountId, now)),
        this.prisma.hold.aggregate({
          where: { accountId, status: { in: ['reserved', 'confirmed'] } },
          _sum: { amountE9: true },
        }),
      ],
      { isolationLevel: 'RepeatableRead' },
    );
    return { sources, heldE9: held._sum.amountE9 ?? 0n };
  }

  private liveSourcesQuery(accountId: string, now: Date) {
    return {
      where: { accountId, remainingE9: { gt: 0n }, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      orderBy: { createdAt: 'asc' as const },
      select: { id: true, kind: true, model: true, remainingE9: true, expiresAt: true },
    };
  }
}
