import type { Metrics } from '@gen/observability';
import { CIRCUIT_STATES, type UpstreamBreakers } from './upstream-breakers';

/**
 * `provider_circuit_state{endpoint,state}`, read on scrape from this process's breakers: 1 for the state each
 * endpoint's breaker is in, 0 for the two others (so `== 1` selects, and a change of state is a change of
 * series value, not a vanished series). `endpoint` is the breaker's key, `<adapter> <baseUrl>`: bounded by
 * the catalog's bindings. Only endpoints this process has called appear. Returns what removes it.
 */
export function circuitMetrics(metrics: Metrics, breakers: UpstreamBreakers): () => void {
  return metrics
    .gauge(
      'provider_circuit_state',
      "Upstream endpoint circuit breakers of this process: 1 for the breaker's current state (closed, open, half_open).",
      ['endpoint', 'state'],
    )
    .source(async () =>
      breakers
        .states()
        .flatMap(({ endpoint, state }) =>
          CIRCUIT_STATES.map((s) => ({ labels: { endpoint, state: s }, value: s === state ? 1 : 0 })),
        ),
    );
}
