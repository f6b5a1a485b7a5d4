import { Inject, Injectable } from '@nestjs/common';
import type { AdminTokenVerifier } from '@gen/contracts';
import { APP_CONFIG, hashSecret, sameHash, type AppConfig } from '@gen/core';
import { AccountsRepository } from '../persistence/accounts.repository';

/** Admin tokens: the ADMIN_TOKEN setting, or the token generated on first start (stored as a hash). */
@Injectable()
export class AdminTokensUseCase implements AdminTokenVerifier {
  private readonly configured: string | null;

  constructor(
    private readonly accounts: AccountsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.configured = config.ADMIN_TOKEN ? hashSecret(config.ADMIN_TOKEN) : null;
  }

  async verify(token: string): Promise<boolean> {
    if (this.configured && sameHash(this.configured, hashSecret(token))) return true;
    return this.accounts.adminTokenExists(token);
  }
}
