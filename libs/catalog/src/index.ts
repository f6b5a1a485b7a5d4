export { CatalogModule, type CatalogModuleOptions } from './catalog.module';
export { CatalogService } from './persistence/catalog.service';
export { type LoadedModel } from './domain/catalog';
export { loadCatalogFile } from './persistence/load-catalog';
export { catalogFilePath } from './persistence/catalog-file-path';
export { validateModelInput } from './domain/validate-input';
export { catalogOpenApi } from './http/catalog.openapi';
