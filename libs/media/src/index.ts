export { AssetsModule, type AssetsModuleOptions } from './assets/assets.module';
export { assetsOpenApi } from './assets/http/assets.openapi';
