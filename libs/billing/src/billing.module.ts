import { Module, type DynamicModule } from '@nestjs/common';
import { FUNDS_PORT, HOLDS_PORT, KEY_SPEND_PORT } from '@gen/contracts';
import { BILLING_OPTIONS, DEFAULT_BILLING_OPTIONS, type BillingOptions } from './domain/billing-options';
import { BillingOutboxRelay } from './events/billing-outbox.relay';
import { TaskLifecycleConsumer } from './events/task-lifecycle.consumer';
import { HoldsPortAdapter } from './adapters/holds-port.adapter';
import { KeySpendPortAdapter } from './adapters/key-spend-port.adapter';
import { ConsoleBalanceController } from './http/console-balance.controller';
import { CreditController } from './http/credit.controller';
import { BillingPrisma } from './persistence/billing-prisma';
import { FundsRepository } from './persistence/funds.repository';
import { HoldsRepository } from './persistence/holds.repository';
import { outboxSignalProvider } from '@gen/messaging';
import { BILLING_SCHEMA } from './persistence/billing-prisma';
import { AddCreditUseCase } from './use-cases/add-credit.use-case';
import { CheckFundsUseCase } from './use-cases/check-funds.use-case';
import { ConfirmHoldUseCase } from './use-cases/confirm-hold.use-case';
import { GetBalanceUseCase } from './use-cases/get-balance.use-case';
import { ReleaseHoldUseCase } from './use-cases/release-hold.use-case';
import { ReleaseStaleHoldsUseCase } from './use-cases/release-stale-holds.use-case';
import { ReserveHoldUseCase } from './use-cases/reserve-hold.use-case';
import { SettleHoldUseCase } from './use-cases/settle-hold.use-case';
import { StaleHoldsSweeper } from './workers/stale-holds.sweeper';
import { BillingMetrics } from './workers/billing-metrics';

export interface BillingModuleOptions extends Partial<BillingOptions> {
  /**
   * Serve `/api/v1/chat/credit`, `/console/v1/balance` and `/admin/v1/accounts/{id}/credits` (default true):
   * the billing app; embedded mode.
   */
  readonly http?: boolean;
}

/**
 * Funds, credits, grants, holds and the ledger. Needs an ACCOUNT_DIRECTORY from the composing app, and the
 * platform's DATABASE, CLOCK and EVENT_BUS. While the app runs it sweeps expired reserves, follows the task
 * lifecycle and relays its outbox (`workers`, on by default). Compose it through `forRoot`, which decides
 * whether this process serves its routes.
 */
@Module({
  providers: [
    { provide: BILLING_OPTIONS, useValue: DEFAULT_BILLING_OPTIONS },
    BillingPrisma,
    FundsRepository,
    HoldsRepository,
    outboxSignalProvider(BILLING_SCHEMA.schema),
    GetBalanceUseCase,
    AddCreditUseCase,
    ReserveHoldUseCase,
    CheckFundsUseCase,
    ConfirmHoldUseCase,
    SettleHoldUseCase,
    ReleaseHoldUseCase,
    ReleaseStaleHoldsUseCase,
    HoldsPortAdapter,
    KeySpendPortAdapter,
    StaleHoldsSweeper,
    BillingMetrics,
    TaskLifecycleConsumer,
    BillingOutboxRelay,
    { provide: FUNDS_PORT, useExisting: AddCreditUseCase },
    { provide: HOLDS_PORT, useExisting: HoldsPortAdapter },
    { provide: KEY_SPEND_PORT, useExisting: KeySpendPortAdapter },
  ],
})
export class BillingModule {
  /** The module with some options changed (e.g. a shorter reserve TTL, no background work, no routes). */
  static forRoot({ http = true, ...options }: BillingModuleOptions = {}): DynamicModule {
    return {
      module: BillingModule,
      controllers: http ? [CreditController, ConsoleBalanceController] : [],
      providers: [{ provide: BILLING_OPTIONS, useValue: { ...DEFAULT_BILLING_OPTIONS, ...options } }],
      exports: [FUNDS_PORT, HOLDS_PORT, KEY_SPEND_PORT],
    };
  }
}
