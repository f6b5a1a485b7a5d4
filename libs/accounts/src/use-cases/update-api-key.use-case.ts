import { Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { AccountsRepository } from '../persistence/accounts.repository';
import { apiKeyViewOf, type ApiKeyView } from './manage-api-key.use-case';

export interface UpdateApiKeyCommand {
  readonly accountId: string;
  readonly keyId: string;
  readonly name?: string;
  /** Nano-USD; null clears the cap (no daily limit); absent leaves it. */
  readonly dailyCapE9?: bigint | null;
}

/** PATCH /console/v1/keys/{keyId}: renames a key of the account and/or sets or clears its daily cap. */
@Injectable()
export class UpdateApiKeyUseCase {
  constructor(private readonly accounts: AccountsRepository) {}

  async execute(command: UpdateApiKeyCommand): Promise<ApiKeyView> {
    const change = {
      ...(command.name !== undefined ? { name: command.name } : {}),
      ...(command.dailyCapE9 !== undefined ? { dailyCapE9: command.dailyCapE9 } : {}),
    };
    const found = await this.accounts.updateApiKey(command.accountId, command.keyId, change);
    const key = found && (await this.accounts.findApiKey(command.keyId));
    if (!key || key.accountId !== command.accountId)
      throw new DomainError(BusinessCode.NotFound, 'key.not_found');
    return apiKeyViewOf(key);
  }
}
