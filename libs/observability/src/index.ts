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
export {
  SpanKind,
  SpanStatusCode,
  activeTraceparent,
  carrierOf,
  contextOf,
  inConsumerSpan,
  inSpan,
  publishSpans,
  startTracing,
  stopTracing,
  tracesUrlOf,
  tracingEnabled,
  type Carrier,
  type PublishSpans,
  type SpanOptions,
  type TracingSettings,
} from './tracing';
export { installHttpTracing } from './http-tracing';
