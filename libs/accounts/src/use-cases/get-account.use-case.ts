import { Injectable } from '@nestjs/common';
import { BusinessCode, type AccountDirectory, type CallbackSettings } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { AccountsRepository } from '../persistence/accounts.repository';

export interface AccountView {
  readonly accountId: string;
  readonly name: string;
  readonly group: string;
  readonly language: string | null;
  readonly hasSigningSecret: boolean;
  readonly createdAt: string;
}

@Injectable()
export class GetAccountUseCase implements AccountDirectory {
  constructor(private readonly accounts: AccountsRepository) {}

  async execute(accountId: string): Promise<AccountView> {
    const account = await this.accounts.findAccount(accountId);
    if (!account) throw new DomainError(BusinessCode.NotFound, 'account.not_found');
    return {
      accountId: account.id,
      name: account.name,
      group: account.groupName,
      language: account.language,
      hasSigningSecret: account.signingSecret !== null,
      createdAt: account.createdAt.toISOString(),
    };
  }

  async exists(accountId: string): Promise<boolean> {
    return (await this.accounts.findAccount(accountId)) !== null;
  }

  async callbackSettings(accountId: string): Promise<CallbackSettings | null> {
    const account = await this.accounts.findAccount(accountId);
    return account ? { signingSecret: account.signingSecret, language: account.language } : null;
  }
}
