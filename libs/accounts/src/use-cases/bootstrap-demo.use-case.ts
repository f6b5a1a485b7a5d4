import { Inject, Injectable } from '@nestjs/common';
import { IdPrefix } from '@gen/contracts';
import { APP_CONFIG, NANOS_PER_USD, newId, type AppConfig } from '@gen/core';
import { DATABASE, type Database } from '@gen/persistence';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { issueAdminToken } from '../domain/credentials';
import { AccountsRepository } from '../persistence/accounts.repository';
import { CreateAccountUseCase } from './create-account.use-case';
import { CreateApiKeyUseCase } from './create-api-key.use-case';
import { RotateSigningSecretUseCase } from './rotate-signing-secret.use-case';

export interface BootstrapFile {
  readonly baseUrl: string;
  readonly accountId: string;
  readonly apiKey: string;
  readonly adminToken: string;
  /** The demo account's callback signing secret, so that callbacks are signed from the first task. */
  readonly signingSecret: string;
}

export const DEMO_CREDIT_E9 = 25n * NANOS_PER_USD;

/**
 * First start: a demo account with $25.00 of wallet funds, one API key, a callback signing secret and an admin
 * token, written to DATA_DIR/bootstrap.json (mode 0600). Later starts only refresh the file's baseUrl.
 */
@Injectable()
export class BootstrapDemoUseCase {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly createAccount: CreateAccountUseCase,
    private readonly createApiKey: CreateApiKeyUseCase,
    private readonly rotateSigningSecret: RotateSigningSecretUseCase,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  /**
   * Under an advisory lock, so that processes starting at once against one database (a fleet) make one demo
   * account between them; the others find it.
   */
  execute(baseUrl: string): Promise<{ created: boolean; file: BootstrapFile | null; path: string }> {
    return this.database.withLock('accounts:bootstrap', () => this.bootstrap(baseUrl));
  }

  private async bootstrap(
    baseUrl: string,
  ): Promise<{ created: boolean; file: BootstrapFile | null; path: string }> {
    const path = join(this.config.DATA_DIR, 'bootstrap.json');
    if (await this.accounts.findBootstrap()) {
      if (!existsSync(path)) return { created: false, file: null, path };
      const file = { ...(JSON.parse(readFileSync(path, 'utf8')) as BootstrapFile), baseUrl };
      writeSecretFile(path, file);
      return { created: false, file, path };
    }
    const { accountId } = await this.createAccount.execute({ name: 'Demo', creditE9: DEMO_CREDIT_E9 });
    const { apiKey } = await this.createApiKey.execute({ accountId, name: 'demo' });
    const { secret: signingSecret } = await this.rotateSigningSecret.execute(accountId);
    let adminToken = this.config.ADMIN_TOKEN;
    if (!adminToken) {
      adminToken = issueAdminToken();
      await this.accounts.saveAdminToken(newId(IdPrefix.adminToken), adminToken);
    }
    await this.accounts.recordBootstrap(accountId);
    const file: BootstrapFile = { baseUrl, accountId, apiKey, adminToken, signingSecret };
    writeSecretFile(path, file);
    return { created: true, file, path };
  }
}

function writeSecretFile(path: string, content: BootstrapFile): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}
