import { Module, type DynamicModule } from '@nestjs/common';
import {
  ACCOUNT_DIRECTORY,
  ADMIN_TOKEN_VERIFIER,
  API_KEY_AUTHENTICATOR,
  CONSOLE_SESSION_VERIFIER,
} from '@gen/contracts';
import { AdminAccountsController } from './http/admin-accounts.controller';
import { ConsoleKeysController } from './http/console-keys.controller';
import { ConsoleSessionController } from './http/console-session.controller';
import { AccountsPrisma } from './persistence/accounts-prisma';
import { AccountsRepository } from './persistence/accounts.repository';
import { AdminTokensUseCase } from './use-cases/admin-tokens.use-case';
import { AuthenticateApiKeyUseCase } from './use-cases/authenticate-api-key.use-case';
import { BootstrapDemoUseCase } from './use-cases/bootstrap-demo.use-case';
import { ConsoleSessionsUseCase } from './use-cases/console-sessions.use-case';
import { CreateAccountUseCase } from './use-cases/create-account.use-case';
import { CreateApiKeyUseCase } from './use-cases/create-api-key.use-case';
import { CreateConsoleLinkUseCase } from './use-cases/create-console-link.use-case';
import { GetAccountUseCase } from './use-cases/get-account.use-case';
import { ListConsoleKeysUseCase } from './use-cases/list-console-keys.use-case';
import { ManageApiKeyUseCase } from './use-cases/manage-api-key.use-case';
import { ManageGroupsUseCase } from './use-cases/manage-groups.use-case';
import { RotateSigningSecretUseCase } from './use-cases/rotate-signing-secret.use-case';
import { SignInConsoleUseCase } from './use-cases/sign-in-console.use-case';
import { SignOutConsoleUseCase } from './use-cases/sign-out-console.use-case';
import { UpdateApiKeyUseCase } from './use-cases/update-api-key.use-case';
import { UpdateAccountUseCase } from './use-cases/update-account.use-case';

export interface AccountsModuleOptions {
  /**
   * Serve the accounts' administration (`/admin/v1/accounts`, keys, groups) and the console's sign-in,
   * session, keys and signing secret (`/console/v1`):
   * the gateway; embedded mode. The other apps compose the module for its ports only.
   */
  readonly http: boolean;
}

/**
 * Accounts, API keys, console sessions, groups, signing secrets and admin tokens. Needs a FUNDS_PORT from
 * the composing app (opening credit). Provides the credential verifiers the edge uses. Compose it through
 * `forRoot`, which decides whether this process serves its routes.
 */
@Module({
  providers: [
    AccountsPrisma,
    AccountsRepository,
    AdminTokensUseCase,
    AuthenticateApiKeyUseCase,
    BootstrapDemoUseCase,
    ConsoleSessionsUseCase,
    CreateAccountUseCase,
    CreateApiKeyUseCase,
    CreateConsoleLinkUseCase,
    GetAccountUseCase,
    ManageApiKeyUseCase,
    ManageGroupsUseCase,
    RotateSigningSecretUseCase,
    SignInConsoleUseCase,
    SignOutConsoleUseCase,
    UpdateAccountUseCase,
    UpdateApiKeyUseCase,
    { provide: API_KEY_AUTHENTICATOR, useExisting: AuthenticateApiKeyUseCase },
    { provide: CONSOLE_SESSION_VERIFIER, useExisting: ConsoleSessionsUseCase },
    { provide: ADMIN_TOKEN_VERIFIER, useExisting: AdminTokensUseCase },
    { provide: ACCOUNT_DIRECTORY, useExisting: GetAccountUseCase },
  ],
  exports: [
    API_KEY_AUTHENTICATOR,
    CONSOLE_SESSION_VERIFIER,
    ADMIN_TOKEN_VERIFIER,
    ACCOUNT_DIRECTORY,
    BootstrapDemoUseCase,
  ],
})
export class AccountsModule {
  static forRoot(options: AccountsModuleOptions): DynamicModule {
    return {
      module: AccountsModule,
      controllers: options.http
        ? [AdminAccountsController, ConsoleSessionController, ConsoleKeysController]
        : [],
      // The console's key list reads today's spend through billing's KEY_SPEND_PORT: only where it serves routes.
      providers: options.http ? [ListConsoleKeysUseCase] : [],
    };
  }
}
