import { Counter, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { RequestDurations } from './request-durations';

/** The app's metrics (`Metrics`), one per application: PlatformModule provides it. */
export const METRICS = Symbol('Metrics');

/** One value of a gauge, with its labels (exactly the gauge's label names). */
export interface Sample {
  readonly labels?: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Reads the current values of a gauge: called on scrape (see `cached` to share one read between scrapes). */
export type SampleSource = () => Promise<readonly Sample[]>;

/** A source that has not answered by then is left out of that scrape (and counted as failed). */
export const SOURCE_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `read`, called at most once per `ttlMs`: calls meanwhile share the last answer (or the read under way), so
 * several scrapers, or two gauges fed by one query, cost one read. A failed read is not kept.
 */
export function cached<T>(
  ttlMs: number,
  read: () => Promise<T>,
  now: () => number = Date.now,
): () => Promise<T> {
  let last: { readonly at: number; readonly value: Promise<T> } | undefined;
  return () => {
    const at = now();
    if (last && at - last.at < ttlMs) return last.value;
    const entry = { at, value: read() };
    last = entry;
    entry.value.catch(() => {
      if (last === entry) last = undefined;
    });
    return entry.value;
  };
}

/**
 * A gauge whose values are read when Prometheus scrapes, from every source added to it (the outbox relays of
 * two schemas in one process feed one `outbox_rows`). Nothing is computed between scrapes. A source that
 * fails or takes longer than the timeout (SOURCE_TIMEOUT_MS) is left out of that scrape, rather than shown as
 * a made-up value, and counted in `metrics_source_failures_total{metric}`; the others are still reported.
 * prom-client reads it through `get()`, like any of its metrics.
 */
export class ScrapeGauge {
  readonly type = 'gauge';
  readonly aggregator = 'sum';
  private readonly sources = new Set<SampleSource>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly failures: Counter<'metric'>,
    private readonly timeoutMs: number,
  ) {}

  /** Adds a source; returns what removes it (its values go with it from the next scrape). */
  source(read: SampleSource): () => void {
    this.sources.add(read);
    return () => {
      this.sources.delete(read);
    };
  }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }> {
    const answers = await Promise.all(
      [...this.sources].map((read) =>
        withTimeout(read(), this.timeoutMs)
          .then((samples) => samples.map((sample) => this.checked(sample)))
          .catch(() => {
            this.failures.inc({ metric: this.name });
            return [];
          }),
      ),
    );
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: answers.flat(),
    };
  }

  /** A sample with other labels than the gauge's is a bug of its source: the source's answer is dropped. */
  private checked(sample: Sample): Sample {
    const names = Object.keys(sample.labels ?? {});
    if (names.length !== this.labelNames.length || names.some((n) => !this.labelNames.includes(n)))
      throw new Error(`${this.name}: labels ${names.join(',')} instead of ${this.labelNames.join(',')}`);
    return sample;
  }
}

export interface MetricsOptions {
  /** prom-client's default process metrics (CPU, memory, event loop lag, GC, handles); default true. */
  readonly processMetrics?: boolean;
  /** How long a gauge source may take before a scrape leaves it out; default SOURCE_TIMEOUT_MS. */
  readonly sourceTimeoutMs?: number;
}

/**
 * An app's metrics in the Prometheus text format: prom-client's process metrics, the request durations the
 * edge observes (the only work done per request), and gauges read on scrape from the lib that owns each
 * (outbox depth, consumer lag, holds, webhook backlog, circuits). One registry per application, so tests that
 * run several apps in one process keep them apart.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requests = new RequestDurations();
  private readonly gauges = new Map<string, ScrapeGauge>();
  private readonly failures: Counter<'metric'>;
  private readonly sourceTimeoutMs: number;

  constructor(options: MetricsOptions = {}) {
    this.sourceTimeoutMs = options.sourceTimeoutMs ?? SOURCE_TIMEOUT_MS;
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.registry.registerMetric(this.requests as unknown as Metric);
    this.failures = new Counter({
      name: 'metrics_source_failures_total',
      help: 'Scrapes in which a gauge source failed or did not answer in time (its values were left out).',
      labelNames: ['metric'],
      registers: [this.registry],
    });
  }

  /** The gauge `name`, declared on first use; later calls (another relay of the same process) get the same. */
  gauge(name: string, help: string, labelNames: readonly string[] = []): ScrapeGauge {
    let gauge = this.gauges.get(name);
    if (!gauge) {
      gauge = new ScrapeGauge(name, help, labelNames, this.failures, this.sourceTimeoutMs);
      this.registry.registerMetric(gauge as unknown as Metric);
      this.gauges.set(name, gauge);
    }
    return gauge;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * The exposition. Families without a sample are left out (a gauge whose sources found nothing to report, the
   * request histogram before the first request), so an app shows only what it does.
   */
  async render(): Promise<string> {
    const registry = this.registry as Registry & { getMetricsAsString(metric: unknown): Promise<string> };
    const all = registry.getMetricsAsArray() as unknown[];
    const gauges = new Set<unknown>(this.gauges.values());
    const text = new Map<unknown, string>();
    // Gauges first: their failures are counted while they are read, and the counter is read after them.
    for (const phase of [all.filter((m) => gauges.has(m)), all.filter((m) => !gauges.has(m))]) {
      const texts = await Promise.all(phase.map((metric) => registry.getMetricsAsString(metric)));
      phase.forEach((metric, i) => text.set(metric, texts[i] ?? ''));
    }
    const texts = all.map((metric) => text.get(metric) ?? '');
    // HELP and TYPE are the first two lines: a third one is a sample.
    const withSamples = texts.filter((text) => text.indexOf('\n', text.indexOf('\n') + 1) !== -1);
    return `${withSamples.join('\n\n')}\n`;
  }
}
