export { MediaModule, type MediaModuleOptions } from './media.module';
export { mediaOpenApi } from './http/media.openapi';
export { AssetsModule, type AssetsModuleOptions } from './assets/assets.module';
export { assetsOpenApi } from './assets/http/assets.openapi';
