export { CatalogModule, type CatalogModuleOptions } from './catalog.module';
export {
  CatalogService,
  CATALOG,
  AVAILABILITY_SOURCES,
  MAX_SEARCH_LENGTH,
  type ModelListFilters,
  type PriceContext,
  type ValidatedInput,
} from './catalog.service';
export { Catalog, type LoadedModel } from './domain/catalog';
export * from './domain/model';
export * from './domain/pricing';
export { canonicalize, canonicalJson, requestFingerprint } from './domain/canonical-json';
export { isAvailable, environmentCredentials, type AvailabilitySources } from './domain/availability';
export { chatInputSchema } from './domain/chat-input-schema';
export { loadCatalogFile, buildCatalog, KNOWN_ADAPTERS, type LoadCatalogOptions } from './load/load-catalog';
export { CatalogLoadError } from './load/catalog-load-error';
export { catalogFilePath, CATALOG_FILE_VARIABLE } from './load/catalog-file-path';
export { validateModelInput, type ValidateInputOptions } from './validation/validate-input';
export { inputProblem, type InputProblem } from './validation/input-problem';
export * from './http/model.dto';
export * from './http/models.controller';
export * from './http/catalog.openapi';
export { TaskPricingService } from './task-pricing.service';
export { chargeOfUsageE9 } from './domain/usage-charge';
