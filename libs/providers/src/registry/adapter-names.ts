import { DEFAULT_ADAPTERS } from './default-adapters';

/**
 * The adapters this service has, by the name a catalog binding gives (`provider.adapter`): the catalog refuses
 * a binding to any other name, and the provider registry builds each of them.
 */
export const ADAPTER_NAMES: readonly string[] = Object.keys(DEFAULT_ADAPTERS);
