export {
  METRICS,
  Metrics,
  ScrapeGauge,
  SOURCE_TIMEOUT_MS,
  cached,
  type MetricsOptions,
  type Sample,
  type SampleSource,
} from './metrics';
export { REQUEST_DURATION_BUCKETS, RequestDurations } from './request-durations';
export { METRICS_PATH, installMetricsRoute, portOf, serveMetrics } from './metrics-endpoint';
