import { CATALOG_DOCUMENT, type CatalogDocumentPort } from '@gen/contracts';
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
