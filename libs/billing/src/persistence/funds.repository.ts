import { Injectable } from '@nestjs/common';
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

  /** Adds a funding source and its ledger entry in one transaction. */
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
          amountE9: row.amountE9,
        },
      }),
    ]);
  }

  /** Funding sources with money left that have not expired at `now`. */
  liveSources(accountId: string, now: Date): Promise<FundingSourceRow[]> {
    return this.prisma.fundingSource.findMany({
      where: { accountId, remainingE9: { gt: 0n }, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      orderBy: { createdAt: 'asc' },
      select: { id: true, kind: true, model: true, remainingE9: true, expiresAt: true },
    });
  }
}
