import type { CatalogModel } from './model';

/**
 * What `available` depends on, injected so that it is testable: the credentials a binding names
 * (environment variables, or a secret store) and, when the runner has them, the circuit breakers.
 */
export interface AvailabilitySources {
  /** The value of a named credential, or undefined when it is not configured. */
  readonly credential: (name: string) => string | undefined;
  /** True while the circuit of the model's upstream is open. */
  readonly circuitOpen?: (model: CatalogModel) => boolean;
  /**
   * True once text generation runs here. It is planned (text tasks, streaming, the compatibility protocols)
   * and not built yet, so by default a text model is unavailable, whatever its credentials: a model listed
   * `available` must be accepted by createTask.
   */
  readonly runsText?: boolean;
  /**
   * The provider adapters the runner has. Only the offline models' adapter exists today (real providers are
   * planned), so by default a model bound to another adapter is unavailable, whatever its credentials.
   */
  readonly adapters?: readonly string[];
}

/** The adapters the runner has today. */
export const RUNNABLE_ADAPTERS: readonly string[] = ['offline'];

/** Credentials from the process environment (or another variables object). */
export function environmentCredentials(env: NodeJS.ProcessEnv = process.env): AvailabilitySources {
  return { credential: (name) => env[name] };
}

/**
 * A model is available when it is of a modality that runs here (not text, until text generation lands),
 * the runner has its binding's adapter (only `offline` today), every credential its binding names is configured (set and not blank) and its upstream's circuit is not
 * open. Offline media models name no credential and are always available.
 */
export function isAvailable(model: CatalogModel, sources: AvailabilitySources): boolean {
  if (model.modality === 'text' && sources.runsText !== true) return false;
  if (!(sources.adapters ?? RUNNABLE_ADAPTERS).includes(model.binding.adapter)) return false;
  const configured = model.binding.credentials.every(
    (name) => (sources.credential(name) ?? '').trim() !== '',
  );
  return configured && !(sources.circuitOpen?.(model) ?? false);
}
