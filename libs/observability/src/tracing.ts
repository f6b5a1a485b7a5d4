import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';

/**
 * Where spans go and under which name; tracing stays off (no SDK loaded, every helper here a plain call)
 * unless an endpoint is given.
 */
export interface TracingSettings {
  /** `service.name` of every span of this process, e.g. `gateway`. */
  readonly serviceName: string;
  /** The OTLP/HTTP traces URL (`.../v1/traces`), JSON encoded. */
  readonly tracesUrl: string | undefined;
  /** How long finished spans wait to be sent in one batch; default 5000 ms. */
  readonly scheduledDelayMs?: number;
}

/** The W3C trace context fields, as message headers or stored with queued work. */
export type Carrier = Readonly<Record<string, string | undefined>>;

interface Running {
  readonly tracer: Tracer;
  readonly provider: { forceFlush(): Promise<void>; shutdown(): Promise<void> };
  readonly contextManager: { disable(): unknown };
}

let running: Running | undefined;

/** The OTLP/HTTP traces URL of the standard settings: the signal's own, or `<base>/v1/traces`. */
export function tracesUrlOf(settings: {
  readonly OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  readonly OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
}): string | undefined {
  if (settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = settings.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/**
 * Starts tracing for this process when there is somewhere to send spans: the SDK (loaded only then), an
 * AsyncLocalStorage context manager, the W3C trace-context propagator, and a batching OTLP/HTTP JSON exporter.
 * Returns whether it started. Process-wide, like the OpenTelemetry API it sets up.
 */
export function startTracing(settings: TracingSettings): boolean {
  if (running || !settings.tracesUrl) return running !== undefined;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { TracerProvider, BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { AsyncLocalStorageContextManager } =
    require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } =
    require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  const { resourceFromAttributes } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: settings.tracesUrl }),
        scheduledDelayMillis: settings.scheduledDelayMs ?? 5000,
      }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  running = { tracer: provider.getTracer('generation-task-service'), provider, contextManager };
  return true;
}

/** Sends the spans still waiting and stops tracing (the process is stopping, or a test is done). */
export async function stopTracing(): Promise<void> {
  const stopping = running;
  if (!stopping) return;
  running = undefined;
  await stopping.provider.shutdown().catch(() => undefined);
  stopping.contextManager.disable();
  trace.disable();
  propagation.disable();
  context.disable();
}

export function tracingEnabled(): boolean {
  return running !== undefined;
}

/** The context a carrier (message headers, a stored traceparent) continues; the root context without one. */
export function contextOf(carrier: Carrier | string | undefined): Context {
  if (!running || carrier === undefined) return ROOT_CONTEXT;
  const fields = typeof carrier === 'string' ? { traceparent: carrier } : carrier;
  return propagation.extract(ROOT_CONTEXT, fields, {
    keys: (c) => Object.keys(c),
    get: (c, key) => c[key],
  });
}

/** The trace context of `ctx` (default: the active one) as W3C fields; empty when tracing is off or no span is active. */
export function carrierOf(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (running) propagation.inject(ctx, carrier);
  return carrier;
}

/**
 * The W3C `traceparent` of the active span, to store with work that continues later elsewhere (an outbox
 * row's envelope, a queued job, a webhook delivery); undefined when tracing is off or no span is active.
 */
export function activeTraceparent(): string | undefined {
  return running ? carrierOf()['traceparent'] : undefined;
}

export interface SpanOptions {
  readonly kind?: SpanKind;
  readonly attributes?: Attributes;
  /** The parent: a stored traceparent or headers; the active context when absent. */
  readonly parent?: Carrier | string;
}

/** Ends a span with the outcome of the work it covered. */
function finish(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
  }
  span.end();
}

/**
 * Runs `work` inside a new span (its work's own spans are its children), ended when `work` settles, with an
 * error status when it rejects. With tracing off, just runs `work`.
 */
export function inSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  const tracing = running;
  if (!tracing) return work(undefined);
  const parent = options.parent === undefined ? context.active() : contextOf(options.parent);
  const span = tracing.tracer.startSpan(
    name,
    {
      kind: options.kind ?? SpanKind.INTERNAL,
      ...(options.attributes ? { attributes: options.attributes } : {}),
    },
    parent,
  );
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      const result = await work(span);
      finish(span);
      return result;
    } catch (error) {
      finish(span, error);
      throw error;
    }
  });
}

/** The producer spans of one batch of messages, and the trace headers each message carries. */
export interface PublishSpans {
  /** Per message, in order: the W3C headers of its producer span. */
  readonly headers: readonly Record<string, string>[];
  end(error?: unknown): void;
}

/**
 * Producer spans for a batch published to `destination`: one per distinct parent, where each message's parent
 * is the trace context stored with it (an outbox row's `traceparent`) or, without one, the active span. Each
 * message carries its span's context in W3C headers, which its consumer continues. Undefined when tracing is
 * off: nothing is added to the messages.
 */
export function publishSpans(
  destination: string,
  parents: readonly (string | undefined)[],
  attributes: Attributes = {},
): PublishSpans | undefined {
  const tracing = running;
  if (!tracing) return undefined;
  const spans = new Map<string, { span: Span; headers: Record<string, string> }>();
  const headers = parents.map((traceparent) => {
    const key = traceparent ?? '';
    let entry = spans.get(key);
    if (!entry) {
      const parent = traceparent ? contextOf(traceparent) : context.active();
      const span = tracing.tracer.startSpan(
        `${destination} publish`,
        {
          kind: SpanKind.PRODUCER,
          attributes: {
            'messaging.destination.name': destination,
            'messaging.operation.type': 'send',
            ...attributes,
          },
        },
        parent,
      );
      entry = { span, headers: carrierOf(trace.setSpan(parent, span)) };
      spans.set(key, entry);
    }
    return entry.headers;
  });
  for (const { span } of spans.values()) span.setAttribute('messaging.batch.message_count', headers.length);
  return {
    headers,
    end: (error?: unknown) => {
      for (const { span } of spans.values()) finish(span, error);
    },
  };
}

/**
 * Handles one message inside a consumer span that continues the producer's trace: `carrier` is the message's
 * headers (Kafka) or the traceparent stored in its envelope; undefined continues the active context (an
 * in-process delivery runs inside its publisher's). With tracing off, just runs `work`.
 */
export function inConsumerSpan<T>(
  destination: string,
  group: string,
  carrier: Carrier | string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (!running) return work();
  return inSpan(
    `${destination} process`,
    {
      kind: SpanKind.CONSUMER,
      ...(carrier === undefined ? {} : { parent: carrier }),
      attributes: {
        'messaging.destination.name': destination,
        'messaging.consumer.group.name': group,
        'messaging.operation.type': 'process',
      },
    },
    work,
  );
}

export { SpanKind, SpanStatusCode };
