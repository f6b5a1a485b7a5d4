import type { ModelBinding } from '@gen/contracts';
import type { AdapterEnvironment, AdapterFactory, UpstreamAdapter } from './upstream-adapter';

/**
 * The adapters this process has, keyed by the catalog's adapter name (`provider.adapter`). An adapter is built
 * once per binding (its settings and credentials fixed at start) and reused for every call.
 */
export class ProviderRegistry {
  private readonly built = new Map<string, UpstreamAdapter>();

  constructor(
    private readonly factories: Readonly<Record<string, AdapterFactory>>,
    readonly environment: AdapterEnvironment,
  ) {}

  /** The adapter names known here: what a catalog binding may name. */
  names(): string[] {
    return Object.keys(this.factories);
  }

  has(adapter: string): boolean {
    return Object.hasOwn(this.factories, adapter);
  }

  /** True when every credential the binding names is configured (set and not blank). */
  hasCredentials(binding: ModelBinding): boolean {
    return binding.credentials.every((name) => (this.environment.credential(name) ?? '').trim() !== '');
  }

  /** The adapter of a binding; throws when the registry has no adapter of that name. */
  adapterFor(binding: ModelBinding): UpstreamAdapter {
    const key = JSON.stringify([
      binding.adapter,
      binding.upstreamModel,
      binding.credentials,
      binding.settings,
    ]);
    let adapter = this.built.get(key);
    if (!adapter) {
      const factory = this.factories[binding.adapter];
      if (!factory) throw new Error(`no provider adapter named "${binding.adapter}"`);
      adapter = factory(binding, this.environment);
      this.built.set(key, adapter);
    }
    return adapter;
  }
}
