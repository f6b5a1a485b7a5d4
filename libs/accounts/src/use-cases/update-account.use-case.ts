import { Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { DomainError, isSupportedLanguage } from '@gen/core';
import { AccountsRepository } from '../persistence/accounts.repository';

export interface UpdateAccountCommand {
  readonly accountId: string;
  /** A supported language, or null to fall back to English. */
  readonly language?: string | null;
  readonly group?: string;
}

@Injectable()
export class UpdateAccountUseCase {
  constructor(private readonly accounts: AccountsRepository) {}

  async execute(command: UpdateAccountCommand): Promise<{ accountId: string }> {
    if (!(await this.accounts.findAccount(command.accountId)))
      throw new DomainError(BusinessCode.NotFound, 'account.not_found');
    if (
      command.language !== undefined &&
      command.language !== null &&
      !isSupportedLanguage(command.language)
    ) {
      throw new DomainError(BusinessCode.InvalidRequest, 'language.unsupported', {
        language: command.language,
      });
    }
    if (command.group !== undefined && !(await this.accounts.groupExists(command.group))) {
      throw new DomainError(BusinessCode.InvalidRequest, 'group.unknown', { group: command.group });
    }
    await this.accounts.updateAccount(command.accountId, {
      ...(command.language !== undefined ? { language: command.language } : {}),
      ...(command.group !== undefined ? { groupName: command.group } : {}),
    });
    return { accountId: command.accountId };
  }
}
