import { Inject, Injectable } from '@nestjs/common';
import {
  ACCOUNT_DIRECTORY,
  BusinessCode,
  IdPrefix,
  type AccountDirectory,
  type AddCreditCommand,
  type FundsPort,
} from '@gen/contracts';
import { CLOCK, DomainError, newId, type Clock } from '@gen/core';
import { FundsRepository } from '../persistence/funds.repository';
import { GetBalanceUseCase } from './get-balance.use-case';

/** Adds wallet funds, promotional credit or a model-scoped grant, with its ledger entry. */
@Injectable()
export class AddCreditUseCase implements FundsPort {
  constructor(
    private readonly funds: FundsRepository,
    private readonly balance: GetBalanceUseCase,
    @Inject(ACCOUNT_DIRECTORY) private readonly accounts: AccountDirectory,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async addCredit(command: AddCreditCommand): Promise<{ availableE9: bigint }> {
    if (!(await this.accounts.exists(command.accountId)))
      throw new DomainError(BusinessCode.NotFound, 'account.not_found');
    if (command.amountE9 <= 0n)
      throw new DomainError(BusinessCode.InvalidRequest, 'amount.invalid', { field: 'amount' });
    if (command.kind === 'grant' && !command.model)
      throw new DomainError(BusinessCode.InvalidRequest, 'credit.model_required', { field: 'model' });
    if (command.kind !== 'grant' && command.model)
      throw new DomainError(BusinessCode.InvalidRequest, 'credit.model_only_for_grants', { field: 'model' });
    if (command.expiresAt && command.expiresAt.getTime() <= this.clock.now().getTime()) {
      throw new DomainError(BusinessCode.InvalidRequest, 'credit.expiry_in_past', { field: 'expiresAt' });
    }
    await this.funds.addSource({
      id: newId(IdPrefix.fundingSource),
      ledgerId: newId(IdPrefix.ledgerEntry),
      accountId: command.accountId,
      kind: command.kind,
      model: command.model ?? null,
      amountE9: command.amountE9,
      expiresAt: command.expiresAt ?? null,
    });
    return { availableE9: await this.balance.availableE9(command.accountId) };
  }
}
