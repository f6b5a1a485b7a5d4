import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { ApiKeyAuthenticator, ApiKeyPrincipal } from '@gen/contracts';
import {
  CLOCK,
  LOGGER,
  NANOS_PER_USD,
  formatUsd,
  hashSecret,
  sameHash,
  type Clock,
  type Logger,
} from '@gen/core';
import { keyIdOf } from '../domain/credentials';
import { AccountsRepository } from '../persistence/accounts.repository';

/** How many keys' last recorded use a process keeps (the least recently used leaving first). */
const RECORDED_KEYS_KEPT = 100_000;

/** A key's `lastUsedAt` is written at most this often per process (the console shows it to the minute). */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Verifies a presented API key: well-formed, known, hash equal in constant time, not revoked. */
@Injectable()
export class AuthenticateApiKeyUseCase implements ApiKeyAuthenticator {
  /** When this process last recorded each key's use. */
  private readonly recorded = new LRUCache<string, number>({ max: RECORDED_KEYS_KEPT });

  constructor(
    private readonly accounts: AccountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async authenticate(presentedKey: string): Promise<ApiKeyPrincipal | null> {
    const keyId = keyIdOf(presentedKey);
    if (!keyId) return null;
    const key = await this.accounts.findApiKeyForAuth(keyId);
    if (!key || key.revokedAt !== null || !sameHash(key.secretHash, hashSecret(presentedKey))) return null;
    const multiplierE9 = await this.accounts.groupMultiplierE9(key.account.groupName);
    this.recordUse(key.id);
    return {
      accountId: key.accountId,
      keyId: key.id,
      language: key.account.language,
      group: key.account.groupName,
      // A group without a row prices at the standard rate.
      priceMultiplier: formatUsd(multiplierE9 ?? NANOS_PER_USD),
      dailySpendCap: key.dailyCapE9 === null ? null : formatUsd(key.dailyCapE9),
    };
  }

  /**
   * Records the key's use off the request's path (nobody waits for it; a failure is only logged), at most once
   * a minute per process: verifications already miss the key cache at most once a second per key.
   */
  private recordUse(keyId: string): void {
    const now = this.clock.now();
    const last = this.recorded.get(keyId);
    if (last !== undefined && now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
    this.recorded.set(keyId, now.getTime());
    this.accounts
      .touchApiKey(keyId, now, new Date(now.getTime() - LAST_USED_RESOLUTION_MS))
      .catch((error: unknown) => this.logger.warn({ err: error, keyId }, 'could not record a key use'));
  }
}
