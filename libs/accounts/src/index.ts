export { AccountsModule, type AccountsModuleOptions } from './accounts.module';
export {
  BootstrapDemoUseCase,
  DEMO_CREDIT_E9,
  type BootstrapFile,
} from './use-cases/bootstrap-demo.use-case';
export { accountsOpenApi } from './http/accounts.openapi';
export { keyIdOf } from './domain/credentials';
