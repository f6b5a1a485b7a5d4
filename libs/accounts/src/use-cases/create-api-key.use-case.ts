import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { APP_CONFIG, DomainError, formatUsd, hashSecret, parseUsd, type AppConfig } from '@gen/core';
import { issueApiKey } from '../domain/credentials';
import { AccountsRepository } from '../persistence/accounts.repository';

export interface CreateApiKeyCommand {
  readonly accountId: string;
  readonly name?: string;
  /** Daily spend cap, nano-USD; the configured low default when absent. */
  readonly dailyCapE9?: bigint;
}

export interface CreatedApiKey {
  readonly keyId: string;
  /** Shown once; only its hash is stored. */
  readonly apiKey: string;
  readonly dailyCap: string;
}

@Injectable()
export class CreateApiKeyUseCase {
  constructor(
    private readonly accounts: AccountsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(command: CreateApiKeyCommand): Promise<CreatedApiKey> {
    if (!(await this.accounts.findAccount(command.accountId)))
      throw new DomainError(BusinessCode.NotFound, 'account.not_found');
    const dailyCapE9 = command.dailyCapE9 ?? parseUsd(this.config.DEFAULT_KEY_DAILY_CAP)!;
    const { keyId, apiKey } = issueApiKey();
    await this.accounts.createApiKey({
      id: keyId,
      accountId: command.accountId,
      name: command.name ?? 'default',
      secretHash: hashSecret(apiKey),
      dailyCapE9,
    });
    return { keyId, apiKey, dailyCap: formatUsd(dailyCapE9) };
  }
}
