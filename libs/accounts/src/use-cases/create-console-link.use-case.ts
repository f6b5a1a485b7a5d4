import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, IdPrefix } from '@gen/contracts';
import { CLOCK, DomainError, hashSecret, newId, type Clock } from '@gen/core';
import { issueConsoleLinkToken } from '../domain/credentials';
import { AccountsRepository } from '../persistence/accounts.repository';

/** A sign-in link is good for ten minutes, once. */
export const CONSOLE_LINK_TTL_MS = 10 * 60 * 1000;

export interface ConsoleLink {
  /** `<base>/console/sign-in#token=<token>`: the token is in the fragment, which browsers never send. */
  readonly url: string;
  readonly expiresAt: string;
}

/** POST /admin/v1/accounts/{id}/console-links: a one-time sign-in link; only the token's hash is stored. */
@Injectable()
export class CreateConsoleLinkUseCase {
  constructor(
    private readonly accounts: AccountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(accountId: string, baseUrl: string): Promise<ConsoleLink> {
    if (!(await this.accounts.findAccount(accountId)))
      throw new DomainError(BusinessCode.NotFound, 'account.not_found');
    const token = issueConsoleLinkToken();
    const expiresAt = new Date(this.clock.now().getTime() + CONSOLE_LINK_TTL_MS);
    await this.accounts.createConsoleLink({
      id: newId(IdPrefix.consoleLink),
      accountId,
      tokenHash: hashSecret(token),
      expiresAt,
    });
    return {
      url: `${baseUrl.replace(/\/+$/, '')}/console/sign-in#token=${token}`,
      expiresAt: expiresAt.toISOString(),
    };
  }
}
