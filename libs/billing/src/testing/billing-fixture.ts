import type { AccountDirectory, CatalogModelsPort, FundingKind, HoldsPort } from '@gen/contracts';
import { parseUsd, type Clock } from '@gen/core';
import { openDatabase, type Database } from '@gen/persistence';
import { createScratchPostgres, openTestDatabase, type DatabaseKind, type TestDatabase } from '@gen/testing';
import { Client } from 'pg';
import { DEFAULT_BILLING_OPTIONS, type BillingOptions } from '../domain/billing-options';
import { HoldsPortAdapter } from '../adapters/holds-port.adapter';
import { BillingPrisma } from '../persistence/billing-prisma';
import { FundsRepository } from '../persistence/funds.repository';
import { OutboxSignal } from '@gen/messaging';
import { HoldsRepository } from '../persistence/holds.repository';
import { AddCreditUseCase } from '../use-cases/add-credit.use-case';
import { CheckFundsUseCase } from '../use-cases/check-funds.use-case';
import { ConfirmHoldUseCase } from '../use-cases/confirm-hold.use-case';
import { GetBalanceUseCase } from '../use-cases/get-balance.use-case';
import { ReleaseHoldUseCase } from '../use-cases/release-hold.use-case';
import { ReleaseStaleHoldsUseCase } from '../use-cases/release-stale-holds.use-case';
import { ReserveHoldUseCase } from '../use-cases/reserve-hold.use-case';
import { SettleHoldUseCase } from '../use-cases/settle-hold.use-case';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  constructor(private current = new Date('2026-11-24T10:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
  set(instant: Date): void {
    this.current = instant;
  }
}

/** The billing use cases on a real database with billing's migrations applied, wired by hand (no Nest). */
export interface BillingFixture {
  readonly database: Database;
  /** The repository signals its committed outbox rows here (a relay may listen). */
  readonly outboxSignal: OutboxSignal;
  readonly clock: TestClock;
  readonly options: BillingOptions;
  readonly holds: HoldsPort;
  readonly repository: HoldsRepository;
  readonly confirm: ConfirmHoldUseCase;
  readonly settle: SettleHoldUseCase;
  readonly release: ReleaseHoldUseCase;
  readonly releaseStale: ReleaseStaleHoldsUseCase;
  readonly balance: GetBalanceUseCase;
  /** Adds a funding source through AddCreditUseCase; returns its id and creation time. */
  credit(
    accountId: string,
    amount: string,
    kind?: FundingKind,
    extra?: { model?: string; expiresAt?: Date },
  ): Promise<{ id: string; createdAt: Date }>;
  close(): Promise<void>;
}

/**
 * A scratch PostgreSQL database whose commits do not wait for the disk (synchronous_commit off): the same
 * transactions, locks and isolation, without an fsync per commit, which would dominate these tests.
 */
async function openFastPostgres(): Promise<TestDatabase> {
  const scratch = await createScratchPostgres();
  const admin = new Client({ connectionString: scratch.url });
  await admin.connect();
  await admin.query(
    `DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET synchronous_commit = off', current_database()); END $$`,
  );
  await admin.end();
  const database = await openDatabase({ databaseUrl: scratch.url, pgliteDir: '' });
  return {
    database,
    dir: '',
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}

const everyAccountExists: AccountDirectory = {
  exists: async () => true,
  callbackSettings: async () => ({ signingSecret: null, language: null }),
};

/** A catalog in which every model the tests name exists, under that very id. */
const everyModelExists: CatalogModelsPort = { modelIdOf: async (id) => id };

export async function openBillingFixture(
  kind: DatabaseKind,
  options: Partial<BillingOptions> = {},
): Promise<BillingFixture> {
  const test = kind === 'postgres' ? await openFastPostgres() : await openTestDatabase(kind);
  const database = test.database;
  const prisma = new BillingPrisma(database);
  await prisma.onModuleInit();
  const clock = new TestClock();
  const settings = { ...DEFAULT_BILLING_OPTIONS, ...options };
  const funds = new FundsRepository(prisma, database);
  const outboxSignal = new OutboxSignal();
  const repository = new HoldsRepository(database, outboxSignal);
  const balance = new GetBalanceUseCase(funds, clock);
  const addCredit = new AddCreditUseCase(funds, balance, everyAccountExists, clock, everyModelExists);
  const confirm = new ConfirmHoldUseCase(repository);
  const settle = new SettleHoldUseCase(repository, clock);
  const release = new ReleaseHoldUseCase(repository, clock);
  const holds = new HoldsPortAdapter(
    new ReserveHoldUseCase(repository, clock, settings),
    new CheckFundsUseCase(repository, clock),
    confirm,
    settle,
    release,
  );
  const sourcesOf = new Map<string, string[]>();
  return {
    database,
    outboxSignal,
    clock,
    options: settings,
    holds,
    repository,
    confirm,
    settle,
    release,
    releaseStale: new ReleaseStaleHoldsUseCase(repository, release, clock),
    balance,
    async credit(accountId, amount, kind = 'wallet', extra = {}) {
      await addCredit.addCredit({ accountId, kind, amountE9: parseUsd(amount)!, ...extra });
      const known = sourcesOf.get(accountId) ?? [];
      const [row] = await database.query<{ id: string; created: Date }>(
        `SELECT "id", "created_at" AS "created" FROM "billing"."funding_sources"
         WHERE "account_id" = $1 AND NOT ("id" = ANY($2::text[]))`,
        [accountId, known],
      );
      sourcesOf.set(accountId, [...known, row!.id]);
      return { id: row!.id, createdAt: new Date(row!.created) };
    },
    async close() {
      await prisma.onModuleDestroy();
      await test.close();
    },
  };
}
