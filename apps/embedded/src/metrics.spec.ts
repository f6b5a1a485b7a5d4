import { Lifecycle } from '@gen/platform';
import { metricSamples, metricValue } from '@gen/testing';
import { startEmbedded, type Embedded } from './testing/embedded-harness';

const DURATIONS = 'http_server_request_duration_seconds';

describe('GET /metrics on the embedded app', () => {
  let app: Embedded;
  let auth: Record<string, string>;
  beforeAll(async () => {
    // A bucket of 6 requests per key, so that the test can exhaust it.
    app = await startEmbedded({ RATE_LIMIT_BURST: '6', RATE_LIMIT_PER_MINUTE: '1' });
    auth = { authorization: `Bearer ${app.boot.apiKey}` };
  });
  afterAll(() => app.close());

  const scrape = async (headers: Record<string, string> = {}) => {
    const reply = await fetch(`${app.baseUrl}/metrics`, { headers });
    expect(reply.status).toBe(200);
    return reply.text();
  };
  const count = (text: string, family: string, status: string) =>
    metricValue(text, `${DURATIONS}_count`, { family, status }) ?? 0;

  it('counts requests by route family and status, never by path', async () => {
    const before = await scrape();
    expect((await app.call('GET', '/api/v1/models', { headers: auth })).status).toBe(200);
    expect((await app.call('GET', '/api/v1/models/local%2Fsketch', { headers: auth })).status).toBe(200);
    expect((await app.call('GET', '/api/v1/no-such-route', { headers: auth })).status).toBe(404);
    expect((await app.call('GET', '/api/v1/chat/credit')).status).toBe(401);
    expect((await app.call('GET', '/v1/models', { headers: auth })).status).toBe(200);
    expect((await app.call('GET', '/healthz')).status).toBe(200);
    const after = await scrape();

    expect(count(after, 'native', '200') - count(before, 'native', '200')).toBe(2);
    expect(count(after, 'native', '404') - count(before, 'native', '404')).toBe(1);
    expect(count(after, 'native', '401') - count(before, 'native', '401')).toBe(1);
    expect(count(after, 'openai', '200') - count(before, 'openai', '200')).toBe(1);
    // /healthz and the first scrape itself.
    expect(count(after, 'system', '200') - count(before, 'system', '200')).toBe(2);
    // The duration is measured: the two native 200s took some time, and sit in the buckets.
    const sum = (text: string) =>
      metricValue(text, `${DURATIONS}_sum`, { family: 'native', status: '200' }) ?? 0;
    expect(sum(after) - sum(before)).toBeGreaterThan(0);
    expect(metricValue(after, `${DURATIONS}_bucket`, { family: 'native', status: '200', le: '+Inf' })).toBe(
      count(after, 'native', '200'),
    );

    // Bounded labels: a family and a status code, nothing taken from the path or the caller.
    const series = metricSamples(after).filter((s) => s.name.startsWith(DURATIONS));
    for (const sample of series) {
      expect(
        Object.keys(sample.labels)
          .filter((l) => l !== 'le')
          .sort(),
      ).toEqual(['family', 'status']);
      expect(['native', 'openai', 'anthropic', 'gemini', 'admin', 'console', 'public', 'system']).toContain(
        sample.labels['family'],
      );
      expect(sample.labels['status']).toMatch(/^\d{3}$/);
    }
    expect(after).not.toContain('sketch');
    expect(after).not.toContain('no-such-route');
    expect(after).not.toContain(app.boot.apiKey);
  });

  it('reports the gauges of every lib this process runs the background work of, and the process', async () => {
    const text = await scrape();
    expect(metricValue(text, 'outbox_rows', { schema: 'tasks' })).toBeGreaterThanOrEqual(0);
    expect(metricValue(text, 'outbox_rows', { schema: 'billing' })).toBeGreaterThanOrEqual(0);
    expect(metricValue(text, 'outbox_oldest_age_seconds', { schema: 'tasks' })).toBeGreaterThanOrEqual(0);
    expect(metricValue(text, 'billing_open_holds')).toBe(0);
    expect(metricValue(text, 'billing_held_usd')).toBe(0);
    expect(metricValue(text, 'webhook_deliveries_pending', { kind: 'callback' })).toBe(0);
    expect(metricValue(text, 'webhook_deliveries_failing', { kind: 'endpoint_message' })).toBe(0);
    expect(metricValue(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    // The in-process bus has no consumer lag; no upstream was called, so no breaker exists yet.
    expect(text).not.toContain('kafka_consumer_lag');
    expect(text).not.toContain('provider_circuit_state');
    expect(text).not.toContain('metrics_source_failures_total');
  });

  it('answers in the Prometheus text format, uncached, outside the OpenAPI document', async () => {
    const reply = await fetch(`${app.baseUrl}/metrics`);
    expect(reply.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(reply.headers.get('cache-control')).toBe('no-store');
    const text = await reply.text();
    expect(text).toContain(`# TYPE ${DURATIONS} histogram`);
    expect(() => metricSamples(text)).not.toThrow();
    const document = (await app.call('GET', '/openapi.json')).json as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).not.toContain('/metrics');
  });

  it('needs no credential, ignores one, and takes no rate-limit token, even once the key is limited', async () => {
    // Spend the key's bucket: the API refuses it, /metrics does not care.
    let limited = false;
    for (let i = 0; i < 8 && !limited; i += 1)
      limited = (await app.call('GET', '/api/v1/models', { headers: auth })).status === 429;
    expect(limited).toBe(true);
    for (const headers of [{}, auth, { authorization: 'Bearer not-a-key' }, { 'x-api-key': 'nope' }]) {
      const reply = await fetch(`${app.baseUrl}/metrics`, { headers });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('x-ratelimit-limit')).toBeNull();
      await reply.text();
    }
    const text = await scrape();
    expect(count(text, 'native', '429')).toBeGreaterThanOrEqual(1);
  });

  it('still answers while the app drains, when the API refuses new work', async () => {
    app.app.get(Lifecycle).startDraining();
    expect((await app.call('GET', '/api/v1/models', { headers: auth })).status).toBe(503);
    const text = await scrape();
    expect(count(text, 'native', '503')).toBe(1);
  });
});

describe('METRICS_PORT: /metrics on a port of its own', () => {
  let app: Embedded;
  let metricsUrl: string;
  beforeAll(async () => {
    app = await startEmbedded({ METRICS_PORT: '0' });
    const line = app.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l['msg'] === 'metrics listening');
    metricsUrl = `http://127.0.0.1:${String(line?.['port'])}`;
  });

  it('serves the metrics there, and nothing else', async () => {
    await app.call('GET', '/healthz');
    const reply = await fetch(`${metricsUrl}/metrics`);
    expect(reply.status).toBe(200);
    expect(metricValue(await reply.text(), `${DURATIONS}_count`, { family: 'system', status: '200' })).toBe(
      1,
    );
    const other = await fetch(`${metricsUrl}/healthz`);
    expect(other.status).toBe(404);
    await other.text();
  });

  it('answers /metrics on the app port as the unknown path it is there (what an ingress can reach)', async () => {
    const reply = await app.call('GET', '/metrics');
    expect(reply.status).toBe(404);
    expect(reply.json['code']).toBe(404);
  });

  it('closes the metrics port with the app', async () => {
    await app.close();
    await expect(fetch(`${metricsUrl}/metrics`)).rejects.toThrow();
  });
});
