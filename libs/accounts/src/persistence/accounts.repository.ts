import { Injectable } from '@nestjs/common';
import { hashSecret } from '@gen/core';
import { AccountsPrisma } from './accounts-prisma';

export interface AccountRow {
  readonly id: string;
  readonly name: string;
  readonly groupName: string;
  readonly language: string | null;
  readonly signingSecret: string | null;
  readonly createdAt: Date;
}

export interface ApiKeyWithAccount {
  readonly id: string;
  readonly accountId: string;
  readonly secretHash: string;
  readonly revokedAt: Date | null;
  readonly dailyCapE9: bigint | null;
  readonly account: { readonly language: string | null; readonly groupName: string };
}

/** An API key as the console and the admin API see it: everything but its secret. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  /** Null: no daily cap. */
  readonly dailyCapE9: bigint | null;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
  readonly lastUsedAt: Date | null;
}

const API_KEY_RECORD = {
  id: true,
  accountId: true,
  name: true,
  dailyCapE9: true,
  createdAt: true,
  revokedAt: true,
  lastUsedAt: true,
} as const satisfies Record<keyof ApiKeyRecord, true>;

export interface ConsoleSessionRow {
  readonly id: string;
  readonly accountId: string;
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
  readonly csrfHash: string | null;
  readonly account: { readonly language: string | null };
}

/** Data access of the accounts schema. Reads of tenant data take the account id. */
@Injectable()
export class AccountsRepository {
  constructor(private readonly prisma: AccountsPrisma) {}

  createAccount(row: {
    id: string;
    name: string;
    groupName: string;
    language: string | null;
  }): Promise<AccountRow> {
    return this.prisma.account.create({ data: row });
  }

  findAccount(accountId: string): Promise<AccountRow | null> {
    return this.prisma.account.findUnique({ where: { id: accountId } });
  }

  async updateAccount(
    accountId: string,
    change: {
      language?: string | null;
      groupName?: string;
      signingSecret?: string;
      signingSecretRotatedAt?: Date;
    },
  ): Promise<boolean> {
    const result = await this.prisma.account.updateMany({
      where: { id: accountId },
      data: change,
    });
    return result.count === 1;
  }

  async groupExists(name: string): Promise<boolean> {
    return (await this.prisma.accountGroup.count({ where: { name } })) === 1;
  }

  upsertGroup(name: string, multiplierE9: bigint): Promise<{ name: string; multiplierE9: bigint }> {
    return this.prisma.accountGroup.upsert({
      where: { name },
      create: { name, multiplierE9 },
      update: { multiplierE9 },
    });
  }

  listGroups(): Promise<{ name: string; multiplierE9: bigint }[]> {
    return this.prisma.accountGroup.findMany({ orderBy: { name: 'asc' } });
  }

  createApiKey(row: {
    id: string;
    accountId: string;
    name: string;
    secretHash: string;
    dailyCapE9: bigint | null;
  }): Promise<{ id: string; createdAt: Date }> {
    return this.prisma.apiKey.create({ data: row, select: { id: true, createdAt: true } });
  }

  async groupMultiplierE9(name: string): Promise<bigint | null> {
    const group = await this.prisma.accountGroup.findUnique({
      where: { name },
      select: { multiplierE9: true },
    });
    return group?.multiplierE9 ?? null;
  }

  findApiKeyForAuth(keyId: string): Promise<ApiKeyWithAccount | null> {
    return this.prisma.apiKey.findUnique({
      where: { id: keyId },
      select: {
        id: true,
        accountId: true,
        secretHash: true,
        revokedAt: true,
        dailyCapE9: true,
        account: { select: { language: true, groupName: true } },
      },
    });
  }

  findApiKey(keyId: string): Promise<ApiKeyRecord | null> {
    return this.prisma.apiKey.findUnique({ where: { id: keyId }, select: API_KEY_RECORD });
  }

  listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return this.prisma.apiKey.findMany({
      where: { accountId },
      orderBy: { createdAt: 'asc' },
      select: API_KEY_RECORD,
    });
  }

  /** Revokes once; a second call keeps the first revocation time. */
  async revokeApiKey(keyId: string, at: Date): Promise<void> {
    await this.prisma.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: at } });
  }

  async setDailyCap(keyId: string, dailyCapE9: bigint | null): Promise<void> {
    await this.prisma.apiKey.update({ where: { id: keyId }, data: { dailyCapE9 } });
  }

  /** Changes the name and/or the daily cap (null clears it) of one key of this account; false when it is not. */
  async updateApiKey(
    accountId: string,
    keyId: string,
    change: { name?: string; dailyCapE9?: bigint | null },
  ): Promise<boolean> {
    const result = await this.prisma.apiKey.updateMany({ where: { id: keyId, accountId }, data: change });
    return result.count === 1;
  }

  /** Records a use of the key, unless one at or after `notBefore` is already recorded. */
  async touchApiKey(keyId: string, at: Date, notBefore: Date): Promise<void> {
    await this.prisma.apiKey.updateMany({
      where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: notBefore } }] },
      data: { lastUsedAt: at },
    });
  }

  /** `csrfHash`: cookie sessions (signed in through a link) only; null for bearer console tokens. */
  createConsoleSession(row: {
    id: string;
    accountId: string;
    tokenHash: string;
    expiresAt: Date;
    csrfHash?: string | null;
  }): Promise<unknown> {
    return this.prisma.consoleSession.create({ data: row });
  }

  findConsoleSession(tokenHash: string): Promise<ConsoleSessionRow | null> {
    return this.prisma.consoleSession.findUnique({
      where: { tokenHash },
      select: {
        id: true,
        accountId: true,
        expiresAt: true,
        revokedAt: true,
        csrfHash: true,
        account: { select: { language: true } },
      },
    });
  }

  /** Revokes the session of this account once; a second call keeps the first time. */
  async revokeConsoleSession(accountId: string, sessionId: string, at: Date): Promise<void> {
    await this.prisma.consoleSession.updateMany({
      where: { id: sessionId, accountId, revokedAt: null },
      data: { revokedAt: at },
    });
  }

  createConsoleLink(row: {
    id: string;
    accountId: string;
    tokenHash: string;
    expiresAt: Date;
  }): Promise<unknown> {
    return this.prisma.consoleLink.create({ data: row, select: { id: true } });
  }

  /**
   * Marks the link used if it is unused and unexpired at `now`, in one statement (two sign-ins with one link:
   * one wins). The account it signs in to, or null when it was unknown, used or expired.
   */
  async consumeConsoleLink(tokenHash: string, now: Date): Promise<{ accountId: string } | null> {
    const consumed = await this.prisma.consoleLink.updateMany({
      where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (consumed.count !== 1) return null;
    return this.prisma.consoleLink.findUnique({ where: { tokenHash }, select: { accountId: true } });
  }

  async adminTokenExists(token: string): Promise<boolean> {
    return (await this.prisma.adminToken.count({ where: { tokenHash: hashSecret(token) } })) === 1;
  }

  async saveAdminToken(id: string, token: string): Promise<void> {
    await this.prisma.adminToken.create({ data: { id, tokenHash: hashSecret(token) } });
  }

  findBootstrap(): Promise<{ accountId: string } | null> {
    return this.prisma.bootstrap.findUnique({ where: { id: 1 }, select: { accountId: true } });
  }

  async recordBootstrap(accountId: string): Promise<void> {
    await this.prisma.bootstrap.create({ data: { id: 1, accountId } });
  }
}
