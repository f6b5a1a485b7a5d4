import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, with the `service.name` of its resource. */
export interface ReceivedSpan {
  readonly service: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, unknown>>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  readonly status: number;
}

interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: KeyValue[];
        status?: { code?: number };
      }[];
    }[];
  }[];
}

const valueOf = (v: AnyValue): unknown =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));
const attributesOf = (list: KeyValue[] = []): Record<string, unknown> =>
  Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/** A test OTLP/HTTP receiver: decodes the JSON exports POSTed to `/v1/traces` and keeps their spans. */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private constructor(private readonly server: Server) {}

  static async start(host = '127.0.0.1'): Promise<OtlpReceiver> {
    const server = createServer();
    const receiver = new OtlpReceiver(server);
    server.on('request', (req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        if (
          req.method !== 'POST' ||
          req.url !== '/v1/traces' ||
          !/json/.test(req.headers['content-type'] ?? '')
        ) {
          res.writeHead(415).end();
          return;
        }
        receiver.take(JSON.parse(Buffer.concat(parts).toString('utf8')) as ExportRequest);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return receiver;
  }

  private take(request: ExportRequest): void {
    for (const resourceSpans of request.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
      for (const scope of resourceSpans.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          this.spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            status: span.status?.code ?? 0,
          });
    }
  }

  /** The base URL to give as OTEL_EXPORTER_OTLP_ENDPOINT. */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  /** Waits until `check` passes on the spans received (60 s at most), then returns its result. */
  async until<T>(check: (spans: readonly ReceivedSpan[]) => T | undefined | false, ms = 60_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = check(this.spans);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`spans never matched; received:\n${this.describe()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  describe(spans: readonly ReceivedSpan[] = this.spans): string {
    return spans
      .map((s) => `${s.service} ${s.traceId}/${s.spanId}<-${s.parentSpanId ?? '-'} ${s.name}`)
      .join('\n');
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
