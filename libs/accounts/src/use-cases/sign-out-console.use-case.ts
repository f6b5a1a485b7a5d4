import { Inject, Injectable } from '@nestjs/common';
import type { ConsolePrincipal } from '@gen/contracts';
import { CLOCK, type Clock } from '@gen/core';
import { AccountsRepository } from '../persistence/accounts.repository';

/** POST /console/v1/sign-out: the caller's session is revoked; later calls with it are 401. */
@Injectable()
export class SignOutConsoleUseCase {
  constructor(
    private readonly accounts: AccountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(session: ConsolePrincipal): Promise<{ signedOut: true }> {
    await this.accounts.revokeConsoleSession(session.accountId, session.sessionId, this.clock.now());
    return { signedOut: true };
  }
}
