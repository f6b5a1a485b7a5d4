import { Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { issueSigningSecret } from '../domain/credentials';
import { AccountsRepository } from '../persistence/accounts.repository';

/** Generates or replaces the account-wide callback signing secret; the value is returned once. */
@Injectable()
export class RotateSigningSecretUseCase {
  constructor(private readonly accounts: AccountsRepository) {}

  async execute(accountId: string): Promise<{ secret: string }> {
    const secret = issueSigningSecret();
    if (!(await this.accounts.updateAccount(accountId, { signingSecret: secret }))) {
      throw new DomainError(BusinessCode.NotFound, 'account.not_found');
    }
    return { secret };
  }
}
