import { ADAPTER_NAMES } from '@gen/providers';
import type { CatalogModel, ProviderBinding } from './model';

/**
 * What `available` depends on, injected so that it is testable: the credentials a binding names
 * (environment variables, or a secret store), the adapters this service has and the upstreams' circuits.
 */
export interface AvailabilitySources {
  /** The value of a named credential, or undefined when it is not configured. */
  readonly credential: (name: string) => string | undefined;
  /** True while the circuit of the binding's upstream endpoint is open (a breaker tripped, here or elsewhere). */
  readonly circuitOpen?: (binding: ProviderBinding) => boolean;
  /** The adapters this process can run; by default every adapter the service has (`ADAPTER_NAMES`). */
  readonly adapters?: readonly string[];
}

/** Credentials from the process environment (or another variables object). */
export function environmentCredentials(env: NodeJS.ProcessEnv = process.env): AvailabilitySources {
  return { credential: (name) => env[name] };
}

/**
 * A model is available when one of its bindings (the first, or a fallback) can be used now: its adapter exists, every credential it names is
 * configured (set and not blank) and its upstream's circuit is not open. Offline models name no credential and
 * have no circuit: they are always available.
 */
export function isAvailable(model: CatalogModel, sources: AvailabilitySources): boolean {
  const usable = (binding: ProviderBinding): boolean =>
    (sources.adapters ?? ADAPTER_NAMES).includes(binding.adapter) &&
    binding.credentials.every((name) => (sources.credential(name) ?? '').trim() !== '') &&
    !(sources.circuitOpen?.(binding) ?? false);
  return usable(model.binding) || model.fallbacks.some(usable);
}
