import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { CLOCK, DomainError, formatUsd, type Clock } from '@gen/core';
import { keyIdOf } from '../domain/credentials';
import { AccountsRepository, type ApiKeyRecord } from '../persistence/accounts.repository';

export interface ApiKeyView {
  readonly keyId: string;
  readonly accountId: string;
  readonly name: string;
  readonly dailyCap: string;
  readonly createdAt: string;
  readonly revoked: boolean;
  readonly revokedAt?: string;
}

/** Revocation and the daily spend cap of one key. A key is named by its id or by the whole key. */
@Injectable()
export class ManageApiKeyUseCase {
  constructor(
    private readonly accounts: AccountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private async require(keyOrId: string): Promise<ApiKeyRecord> {
    const keyId = keyIdOf(keyOrId) ?? keyOrId;
    const key = await this.accounts.findApiKey(keyId);
    if (!key) throw new DomainError(BusinessCode.NotFound, 'key.not_found');
    return key;
  }

  async revoke(keyOrId: string): Promise<{ keyId: string; revoked: true }> {
    const key = await this.require(keyOrId);
    await this.accounts.revokeApiKey(key.id, this.clock.now());
    return { keyId: key.id, revoked: true };
  }

  async setDailyCap(keyOrId: string, dailyCapE9: bigint): Promise<ApiKeyView> {
    const key = await this.require(keyOrId);
    await this.accounts.setDailyCap(key.id, dailyCapE9);
    return this.view({ ...key, dailyCapE9 });
  }

  async list(accountId: string): Promise<ApiKeyView[]> {
    if (!(await this.accounts.findAccount(accountId)))
      throw new DomainError(BusinessCode.NotFound, 'account.not_found');
    return (await this.accounts.listApiKeys(accountId)).map((k) => this.view(k));
  }

  private view(k: ApiKeyRecord): ApiKeyView {
    return {
      keyId: k.id,
      accountId: k.accountId,
      name: k.name,
      dailyCap: formatUsd(k.dailyCapE9),
      createdAt: k.createdAt.toISOString(),
      revoked: k.revokedAt !== null,
      ...(k.revokedAt ? { revokedAt: k.revokedAt.toISOString() } : {}),
    };
  }
}
