import { Inject, Injectable } from '@nestjs/common';
import { KEY_SPEND_PORT, type KeySpendPort } from '@gen/contracts';
import { ManageApiKeyUseCase, type ApiKeyView } from './manage-api-key.use-case';

export interface ConsoleKeyView extends ApiKeyView {
  /** Spent against the daily cap in the current UTC day (holds outstanding and settled charges), USD. */
  readonly spentToday: string;
}

/** GET /console/v1/keys: the account's keys with today's spend, which billing keeps (KEY_SPEND_PORT). */
@Injectable()
export class ListConsoleKeysUseCase {
  constructor(
    private readonly apiKeys: ManageApiKeyUseCase,
    @Inject(KEY_SPEND_PORT) private readonly spend: KeySpendPort,
  ) {}

  async execute(accountId: string): Promise<{ items: ConsoleKeyView[] }> {
    const keys = await this.apiKeys.list(accountId);
    const spent = keys.length ? await this.spend.spentToday(keys.map((k) => k.keyId)) : {};
    return { items: keys.map((k) => ({ ...k, spentToday: spent[k.keyId] ?? '0' })) };
  }
}
