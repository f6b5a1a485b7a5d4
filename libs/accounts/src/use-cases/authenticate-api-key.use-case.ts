import { Injectable } from '@nestjs/common';
import type { ApiKeyAuthenticator, ApiKeyPrincipal } from '@gen/contracts';
import { NANOS_PER_USD, formatUsd, hashSecret, sameHash } from '@gen/core';
import { keyIdOf } from '../domain/credentials';
import { AccountsRepository } from '../persistence/accounts.repository';

/** Verifies a presented API key: well-formed, known, hash equal in constant time, not revoked. */
@Injectable()
export class AuthenticateApiKeyUseCase implements ApiKeyAuthenticator {
  constructor(private readonly accounts: AccountsRepository) {}

  async authenticate(presentedKey: string): Promise<ApiKeyPrincipal | null> {
    const keyId = keyIdOf(presentedKey);
    if (!keyId) return null;
    const key = await this.accounts.findApiKeyForAuth(keyId);
    if (!key || key.revokedAt !== null || !sameHash(key.secretHash, hashSecret(presentedKey))) return null;
    const multiplierE9 = await this.accounts.groupMultiplierE9(key.account.groupName);
    return {
      accountId: key.accountId,
      keyId: key.id,
      language: key.account.language,
      group: key.account.groupName,
      // A group without a row prices at the standard rate.
      priceMultiplier: formatUsd(multiplierE9 ?? NANOS_PER_USD),
      dailySpendCap: formatUsd(key.dailyCapE9),
    };
  }
}
