import { Inject, Injectable } from '@nestjs/common';
import {
  BusinessCode,
  IdPrefix,
  type ConsoleCookie,
  type ConsolePrincipal,
  type ConsoleSessionVerifier,
} from '@gen/contracts';
import { CLOCK, DomainError, hashSecret, newId, sameHash, type Clock } from '@gen/core';
import { issueConsoleToken } from '../domain/credentials';
import { AccountsRepository } from '../persistence/accounts.repository';

/** Console sessions live twelve hours; the token is shown once and stored as a hash. */
export const CONSOLE_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * Console sessions: `create` issues a bearer console token (admin API, `console-token create`); `verify` is
 * the edge's check of both kinds of session. A session signed in through a link (it has a CSRF hash) is only
 * accepted as the cookie, a bearer token only in `Authorization`.
 */
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

  async verify(token: string, cookie?: ConsoleCookie): Promise<ConsolePrincipal | null> {
    const session = await this.accounts.findConsoleSession(hashSecret(token));
    if (!session || session.revokedAt !== null || session.expiresAt.getTime() <= this.clock.now().getTime())
      return null;
    const principal = {
      accountId: session.accountId,
      sessionId: session.id,
      language: session.account.language,
      expiresAt: session.expiresAt.toISOString(),
    };
    if (!cookie) return session.csrfHash === null ? { ...principal, via: 'bearer' } : null;
    if (session.csrfHash === null) return null;
    const csrfMatches = cookie.csrfToken !== null && sameHash(session.csrfHash, hashSecret(cookie.csrfToken));
    return { ...principal, via: 'cookie', csrfMatches };
  }
}
