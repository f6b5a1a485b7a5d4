import { Module, type DynamicModule } from '@nestjs/common';
import {
  ACCOUNT_DIRECTORY,
  ADMIN_TOKEN_VERIFIER,
  API_KEY_AUTHENTICATOR,
  FILES_PORT,
  type AccountDirectory,
  type ApiKeyPrincipal,
} from '@gen/contracts';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule } from '@gen/platform';
import { ASSET_CONTROLLERS, ASSET_HTTP_PROVIDERS, ASSET_STORE_PROVIDERS } from '../assets.module';
import { assetsOpenApi } from '../http/assets.openapi';
import type { MemoryFilesPort } from './memory-files.port';

export const ADMIN_TOKEN = 'gadm_assets_test';

/** The accounts and API keys a test makes up: what the accounts domain would answer. */
export class TestAccounts {
  private readonly keys = new Map<string, ApiKeyPrincipal>();
  private readonly accounts = new Set<string>();

  addAccount(accountId: string): void {
    this.accounts.add(accountId);
  }

  /** An API key of `accountId` (the account is added too). */
  addKey(apiKey: string, accountId: string, keyId: string, language: string | null = null): void {
    this.addAccount(accountId);
    this.keys.set(apiKey, {
      accountId,
      keyId,
      language,
      group: 'default',
      priceMultiplier: '1',
      dailySpendCap: '5',
    });
  }

  /** The account of a key added with addKey. */
  accountOf(apiKey: string): string {
    const principal = this.keys.get(apiKey);
    if (!principal) throw new Error(`no test key ${apiKey}`);
    return principal.accountId;
  }

  readonly directory: AccountDirectory = {
    exists: async (accountId) => this.accounts.has(accountId),
    callbackSettings: async () => null,
  };

  authenticate = async (apiKey: string): Promise<ApiKeyPrincipal | null> => this.keys.get(apiKey) ?? null;
}

@Module({})
class AssetsTestModule {}

/**
 * The asset library's routes behind the real edge (API keys, admin token, envelope, error filter, OpenAPI
 * document) with the platform's object storage, and the ports other domains provide played by `accounts`
 * and `files`.
 */
export const assetsTestModule =
  (accounts: TestAccounts, files: MemoryFilesPort) =>
  (config: AppConfig, logger: Logger): DynamicModule => ({
    module: AssetsTestModule,
    imports: [PlatformModule.forRoot({ config, logger, openApi: [assetsOpenApi] })],
    controllers: ASSET_CONTROLLERS,
    providers: [
      ...ASSET_STORE_PROVIDERS,
      ...ASSET_HTTP_PROVIDERS,
      { provide: API_KEY_AUTHENTICATOR, useValue: { authenticate: accounts.authenticate } },
      { provide: ADMIN_TOKEN_VERIFIER, useValue: { verify: async (token: string) => token === ADMIN_TOKEN } },
      { provide: ACCOUNT_DIRECTORY, useValue: accounts.directory },
      { provide: FILES_PORT, useValue: files },
    ],
  });
