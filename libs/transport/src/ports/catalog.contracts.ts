import {
  CATALOG_DOCUMENT,
  CATALOG_MODELS,
  type CatalogDocumentPort,
  type CatalogModelsPort,
} from '@gen/contracts';
import { portContract } from '../port-contract';

/** Asked once, at start: the catalog app may itself be starting (the transport's start-up wait covers that). */
export const CATALOG_DOCUMENT_TIMEOUT_MS = 10_000;

/**
 * CATALOG_DOCUMENT (answered by the catalog app): the parsed catalog file, JSON as it is. The caller validates
 * and builds it as the owner did (`buildCatalog`), so a document it cannot take stops its start-up.
 */
export const CATALOG_DOCUMENT_CONTRACT = portContract<CatalogDocumentPort>({
  token: CATALOG_DOCUMENT,
  service: 'catalog',
  port: 'document',
  methods: { document: { timeoutMs: CATALOG_DOCUMENT_TIMEOUT_MS } },
});

/**
 * CATALOG_MODELS (answered by the catalog app): whether the catalog has a model, and its exact id; for billing,
 * which checks the model of a grant. JSON-safe both ways.
 */
export const CATALOG_MODELS_CONTRACT = portContract<CatalogModelsPort>({
  token: CATALOG_MODELS,
  service: 'catalog',
  port: 'models',
  methods: { modelIdOf: {} },
});
