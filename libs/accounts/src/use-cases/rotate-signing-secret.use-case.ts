import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { CLOCK, DomainError, type Clock } from '@gen/core';
import { issueSigningSecret } from '../domain/credentials';
import { AccountsRepository } from '../persistence/accounts.repository';

/** Generates or replaces the account-wide callback signing secret; the value is returned once. */
@Injectable()
export class RotateSigningSecretUseCase {
  constructor(
    private readonly accounts: AccountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(accountId: string): Promise<{ secret: string }> {
    const secret = issueSigningSecret();
    if (
      !(await this.accounts.updateAccount(accountId, {
        signingSecret: secret,
        signingSecretRotatedAt: this.clock.now(),
      }))
    ) {
      throw new DomainError(BusinessCode.NotFound, 'account.not_found');
    }
    return { secret };
  }
}
