import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { CLOCK, DomainError, formatUsd, type Clock } from '@gen/core';
import { keyIdOf, keyPrefixOf } from '../domain/credentials';
import { AccountsRepository, type ApiKeyRecord } from '../persistence/accounts.repository';

export interface ApiKeyView {
  readonly keyId: string;
  readonly accountId: string;
  /** The key's public beginning (`gts_` and the key id's body); the secret part is never shown again. */
  readonly prefix: string;
  readonly name: string;
  /** USD decimal; null: no daily cap. */
  readonly dailyCap: string | null;
  readonly createdAt: string;
  /** The last verification that missed the key cache, to within a minute; null: never used. */
  readonly lastUsedAt: string | null;
  readonly revoked: boolean;
  readonly revokedAt?: string;
}

export const apiKeyViewOf = (k: ApiKeyRecord): ApiKeyView => ({
  keyId: k.id,
  accountId: k.accountId,
  prefix: keyPrefixOf(k.id),
  name: k.name,
  dailyCap: k.dailyCapE9 === null ? null : formatUsd(k.dailyCapE9),
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  revoked: k.revokedAt !== null,
  ...(k.revokedAt ? { revokedAt: k.revokedAt.toISOString() } : {}),
});

/**
 * Revocation and the daily spend cap of one key, and the keys of an account. A key is named by its id or by
 * the whole key. `owner`: the account the caller acts for (console); null for an operator (admin API). A
 * key of another account is the same 404 as an unknown one.
 */
@Injectable()
export class ManageApiKeyUseCase {
  constructor(
    private readonly accounts: AccountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private async require(keyOrId: string, owner: string | null): Promise<ApiKeyRecord> {
    const keyId = keyIdOf(keyOrId) ?? keyOrId;
    const key = await this.accounts.findApiKey(keyId);
    if (!key || (owner !== null && key.accountId !== owner))
      throw new DomainError(BusinessCode.NotFound, 'key.not_found');
    return key;
  }

  async revoke(keyOrId: string, owner: string | null = null): Promise<{ keyId: string; revoked: true }> {
    const key = await this.require(keyOrId, owner);
    await this.accounts.revokeApiKey(key.id, this.clock.now());
    return { keyId: key.id, revoked: true };
  }

  async setDailyCap(keyOrId: string, dailyCapE9: bigint): Promise<ApiKeyView> {
    const key = await this.require(keyOrId, null);
    await this.accounts.setDailyCap(key.id, dailyCapE9);
    return apiKeyViewOf({ ...key, dailyCapE9 });
  }

  async list(accountId: string): Promise<ApiKeyView[]> {
    if (!(await this.accounts.findAccount(accountId)))
      throw new DomainError(BusinessCode.NotFound, 'account.not_found');
    return (await this.accounts.listApiKeys(accountId)).map(apiKeyViewOf);
  }
}
