export { MediaModule, type MediaModuleOptions } from './media.module';
export { mediaOpenApi } from './http/media.openapi';
