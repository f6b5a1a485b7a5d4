export { MediaModule, type MediaModuleOptions } from './media.module';
export { mediaOpenApi } from './http/media.openapi';
export { AssetsModule, type AssetsModuleOptions } from './assets/assets.module';
export { assetsOpenApi } from './assets/http/assets.openapi';
export { MEDIA_SCHEMA } from './persistence/media-schema';
export { ASSETS_SCHEMA } from './assets/persistence/assets-schema';
