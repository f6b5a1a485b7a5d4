import { Inject, Injectable } from '@nestjs/common';
import {
  ACCOUNT_DIRECTORY,
  BusinessCode,
  CATALOG_MODELS,
  IdPrefix,
  type AccountDirectory,
  type AddCreditCommand,
  type CatalogModelsPort,
  type FundsPort,
} from '@gen/contracts';
import { CLOCK, DomainError, newId, type Clock } from '@gen/core';
import { FundsRepository } from '../persistence/funds.repository';
import { GetBalanceUseCase } from './get-balance.use-case';

/**
 * Adds wallet funds, promotional credit or a model-scoped grant, with its ledger entry. A grant's model must be
 * one the catalog knows (asked through CATALOG_MODELS: the catalog app in a fleet), and is kept under its exact
 * id (an alias resolved), the id tasks carry and grants are matched by.
 */
@Injectable()
export class AddCreditUseCase implements FundsPort {
  constructor(
    private readonly funds: FundsRepository,
    private readonly balance: GetBalanceUseCase,
    @Inject(ACCOUNT_DIRECTORY) private readonly accounts: AccountDirectory,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CATALOG_MODELS) private readonly catalog: CatalogModelsPort,
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
    const model = command.model ? await this.catalog.modelIdOf(command.model) : null;
    if (command.model && model === null) {
      throw new DomainError(BusinessCode.InvalidRequest, 'credit.model_unknown', {
        field: 'model',
        model: command.model,
      });
    }
    await this.funds.addSource({
      id: newId(IdPrefix.fundingSource),
      ledgerId: newId(IdPrefix.ledgerEntry),
      accountId: command.accountId,
      kind: command.kind,
      model,
      amountE9: command.amountE9,
      expiresAt: command.expiresAt ?? null,
    });
    return { availableE9: await this.balance.availableE9(command.accountId) };
  }
}
