import { Module } from '@nestjs/common';
import { FUNDS_PORT } from '@gen/contracts';
import { CreditController } from './http/credit.controller';
import { BillingPrisma } from './persistence/billing-prisma';
import { FundsRepository } from './persistence/funds.repository';
import { AddCreditUseCase } from './use-cases/add-credit.use-case';
import { GetBalanceUseCase } from './use-cases/get-balance.use-case';

/** Funds, credits, grants and the ledger. Needs an ACCOUNT_DIRECTORY from the composing app. */
@Module({
  controllers: [CreditController],
  providers: [
    BillingPrisma,
    FundsRepository,
    GetBalanceUseCase,
    AddCreditUseCase,
    { provide: FUNDS_PORT, useExisting: AddCreditUseCase },
  ],
  exports: [FUNDS_PORT],
})
export class BillingModule {}
