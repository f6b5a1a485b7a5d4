import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, IdPrefix } from '@gen/contracts';
import { CLOCK, DomainError, hashSecret, newId, type Clock } from '@gen/core';
import { csrfTokenOf, issueConsoleToken } from '../domain/credentials';
import { AccountsRepository } from '../persistence/accounts.repository';
import { CONSOLE_SESSION_TTL_MS } from './console-sessions.use-case';

export interface ConsoleSignIn {
  /** The session cookie's value; never in a body. */
  readonly sessionToken: string;
  readonly accountId: string;
  readonly language: string | null;
  readonly expiresAt: string;
  /** Sent back in `X-CSRF-Token` on every state-changing call. */
  readonly csrfToken: string;
}

/**
 * POST /console/v1/sign-in: exchanges a sign-in link's token, once, for a cookie session. An unknown,
 * expired or already used token is 401 and creates nothing.
 */
@Injectable()
export class SignInConsoleUseCase {
  constructor(
    private readonly accounts: AccountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(linkToken: string): Promise<ConsoleSignIn> {
    const now = this.clock.now();
    const link = await this.accounts.consumeConsoleLink(hashSecret(linkToken), now);
    const account = link && (await this.accounts.findAccount(link.accountId));
    if (!account) throw new DomainError(BusinessCode.Unauthorized, 'auth.console_link_invalid');
    const sessionToken = issueConsoleToken();
    const csrfToken = csrfTokenOf(sessionToken);
    const expiresAt = new Date(now.getTime() + CONSOLE_SESSION_TTL_MS);
    await this.accounts.createConsoleSession({
      id: newId(IdPrefix.consoleSession),
      accountId: account.id,
      tokenHash: hashSecret(sessionToken),
      csrfHash: hashSecret(csrfToken),
      expiresAt,
    });
    return {
      sessionToken,
      accountId: account.id,
      language: account.language,
      expiresAt: expiresAt.toISOString(),
      csrfToken,
    };
  }
}
