import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, IdPrefix, type ConsolePrincipal, type ConsoleSessionVerifier } from '@gen/contracts';
import { CLOCK, DomainError, hashSecret, newId, type Clock } from '@gen/core';
import { issueConsoleToken } from '../domain/credentials';
import { AccountsRepository } from '../persistence/accounts.repository';

/** Console sessions live twelve hours; the token is shown once and stored as a hash. */
export const CONSOLE_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

@Injectable()
export class ConsoleSessionsUseCase implements ConsoleSessionVerifier {
  constructor(
    private readonly accounts: AccountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(accountId: string): Promise<{ token: string; expiresAt: string }> {
    if (!(await this.accounts.findAccount(accountId)))
      throw new DomainError(BusinessCode.NotFound, 'account.not_found');
    const token = issueConsoleToken();
    const expiresAt = new Date(this.clock.now().getTime() + CONSOLE_SESSION_TTL_MS);
    await this.accounts.createConsoleSession({
      id: newId(IdPrefix.consoleSession),
      accountId,
      tokenHash: hashSecret(token),
      expiresAt,
    });
    return { token, expiresAt: expiresAt.toISOString() };
  }

  async verify(token: string): Promise<ConsolePrincipal | null> {
    const session = await this.accounts.findConsoleSession(hashSecret(token));
    if (!session || session.revokedAt !== null || session.expiresAt.getTime() <= this.clock.now().getTime())
      return null;
    return { accountId: session.accountId, sessionId: session.id, language: session.account.language };
  }
}
