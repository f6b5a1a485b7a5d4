import { OtlpReceiver } from '@gen/testing';
import {
  SpanKind,
  activeTraceparent,
  carrierOf,
  inConsumerSpan,
  inSpan,
  publishSpans,
  startTracing,
  stopTracing,
  tracesUrlOf,
  tracingEnabled,
} from './tracing';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

describe('tracing off (no endpoint)', () => {
  it('starts nothing and leaves every helper a plain call', async () => {
    expect(startTracing({ serviceName: 'x', tracesUrl: undefined })).toBe(false);
    expect(tracingEnabled()).toBe(false);
    expect(await inSpan('a', {}, async (span) => span)).toBeUndefined();
    expect(
      await inConsumerSpan(
        't',
        'g',
        '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        async () => 7,
      ),
    ).toBe(7);
    expect(publishSpans('t', [undefined])).toBeUndefined();
    expect(activeTraceparent()).toBeUndefined();
    expect(carrierOf()).toEqual({});
  });

  it('reads the standard endpoint settings', () => {
    expect(tracesUrlOf({})).toBeUndefined();
    expect(tracesUrlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(
      tracesUrlOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces.example/in',
      }),
    ).toBe('http://traces.example/in');
  });
});

describe('tracing on', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    expect(
      startTracing({
        serviceName: 'unit',
        tracesUrl: `${receiver.endpoint}/v1/traces`,
        scheduledDelayMs: 50,
      }),
    ).toBe(true);
  });
  afterAll(async () => {
    await stopTracing();
    await receiver.close();
  });

  it('carries one trace through a span, a stored traceparent, a publish and a consume', async () => {
    const incoming = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    let stored: string | undefined;
    let headers: Record<string, string> = {};
    await inSpan('request', { kind: SpanKind.SERVER, parent: { traceparent: incoming } }, async () => {
      // What an outbox row stores, written inside the request's span.
      stored = activeTraceparent();
    });
    // Later, elsewhere, with no active span: the relay publishes the row, continuing what it stored.
    expect(activeTraceparent()).toBeUndefined();
    const spans = publishSpans('task.lifecycle', [stored, stored]);
    headers = spans!.headers[0]!;
    expect(spans!.headers[1]).toBe(headers);
    spans!.end();
    let inConsumer: string | undefined;
    await inConsumerSpan('task.lifecycle', 'runner', headers, async () => {
      inConsumer = activeTraceparent();
    });

    const traceId = TRACEPARENT.exec(incoming)![1]!;
    expect(stored).toMatch(TRACEPARENT);
    expect(TRACEPARENT.exec(stored!)![1]).toBe(traceId);
    expect(TRACEPARENT.exec(headers['traceparent']!)![1]).toBe(traceId);
    expect(TRACEPARENT.exec(inConsumer!)![1]).toBe(traceId);

    const trace = await receiver.until((all) => {
      const found = all.filter((s) => s.traceId === traceId);
      return found.length === 3 && found;
    });
    const byName = Object.fromEntries(trace.map((s) => [s.name, s]));
    expect(byName['request']).toMatchObject({ service: 'unit', kind: 2, parentSpanId: 'b7ad6b7169203331' });
    expect(byName['task.lifecycle publish']).toMatchObject({
      kind: 4,
      parentSpanId: byName['request']!.spanId,
      attributes: { 'messaging.destination.name': 'task.lifecycle', 'messaging.batch.message_count': 2 },
    });
    expect(byName['task.lifecycle process']).toMatchObject({
      kind: 5,
      parentSpanId: byName['task.lifecycle publish']!.spanId,
      attributes: { 'messaging.consumer.group.name': 'runner' },
    });
  });

  it('starts a new trace for a consumed message without trace headers, and marks a failure', async () => {
    await expect(
      inConsumerSpan('billing.holds', 'tasks', {}, async () => {
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');
    const span = await receiver.until((all) => all.find((s) => s.name === 'billing.holds process'));
    expect(span.parentSpanId).toBeUndefined();
    expect(span.status).toBe(2);
  });
});
