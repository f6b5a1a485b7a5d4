import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, FUNDS_PORT, IdPrefix, type FundsPort } from '@gen/contracts';
import { DomainError, isSupportedLanguage, newId } from '@gen/core';
import { AccountsRepository } from '../persistence/accounts.repository';

export interface CreateAccountCommand {
  readonly name: string;
  readonly group?: string;
  readonly language?: string;
  /** Opening wallet funds, nano-USD. */
  readonly creditE9?: bigint;
}

@Injectable()
export class CreateAccountUseCase {
  constructor(
    private readonly accounts: AccountsRepository,
    @Inject(FUNDS_PORT) private readonly funds: FundsPort,
  ) {}

  async execute(command: CreateAccountCommand): Promise<{ accountId: string }> {
    const group = command.group ?? 'default';
    if (command.language !== undefined && !isSupportedLanguage(command.language)) {
      throw new DomainError(BusinessCode.InvalidRequest, 'language.unsupported', {
        language: command.language,
      });
    }
    if (!(await this.accounts.groupExists(group)))
      throw new DomainError(BusinessCode.InvalidRequest, 'group.unknown', { group });
    const account = await this.accounts.createAccount({
      id: newId(IdPrefix.account),
      name: command.name,
      groupName: group,
      language: command.language ?? null,
    });
    if (command.creditE9 !== undefined && command.creditE9 > 0n) {
      await this.funds.addCredit({ accountId: account.id, kind: 'wallet', amountE9: command.creditE9 });
    }
    return { accountId: account.id };
  }
}
