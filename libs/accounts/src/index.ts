export { AccountsModule, type AccountsModuleOptions } from './accounts.module';
export { BootstrapDemoUseCase, type BootstrapFile } from './use-cases/bootstrap-demo.use-case';
export { accountsOpenApi } from './http/accounts.openapi';
export { ACCOUNTS_SCHEMA } from './persistence/accounts-prisma';
