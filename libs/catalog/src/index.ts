export { CatalogModule, type CatalogModuleOptions } from './catalog.module';
export { CatalogService } from './catalog.service';
export { type LoadedModel } from './domain/catalog';
export { loadCatalogFile } from './load/load-catalog';
export { catalogFilePath } from './load/catalog-file-path';
export { validateModelInput } from './validation/validate-input';
export { catalogOpenApi } from './http/catalog.openapi';
