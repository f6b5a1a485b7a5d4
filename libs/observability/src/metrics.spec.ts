import { metricSamples, metricValue } from '@gen/testing';
import { Metrics, cached } from './metrics';
import { REQUEST_DURATION_BUCKETS } from './request-durations';

describe('Metrics', () => {
  it('exposes the request durations by family and status, with cumulative buckets, _sum and _count', async () => {
    const metrics = new Metrics({ processMetrics: false });
    metrics.requests.observe('native', 200, 0.003);
    metrics.requests.observe('native', 200, 0.2);
    metrics.requests.observe('native', 429, 0.0005);
    metrics.requests.observe('system', 200, 400);
    const text = await metrics.render();
    const native200 = { family: 'native', status: '200' };
    expect(metricValue(text, 'http_server_request_duration_seconds_count', native200)).toBe(2);
    expect(metricValue(text, 'http_server_request_duration_seconds_sum', native200)).toBeCloseTo(0.203);
    const bucket = (le: string, labels = native200): number | undefined =>
      metricValue(text, 'http_server_request_duration_seconds_bucket', { ...labels, le });
    expect(bucket('0.0025')).toBe(0);
    expect(bucket('0.005')).toBe(1);
    expect(bucket('0.1')).toBe(1);
    expect(bucket('0.25')).toBe(2);
    expect(bucket('+Inf')).toBe(2);
    expect(bucket('0.001', { family: 'native', status: '429' })).toBe(1);
    // Beyond the largest bound: only +Inf counts it.
    expect(bucket('300', { family: 'system', status: '200' })).toBe(0);
    expect(bucket('+Inf', { family: 'system', status: '200' })).toBe(1);
    const series = metricSamples(text).filter(
      (s) => s.name === 'http_server_request_duration_seconds_bucket',
    );
    expect(series).toHaveLength(3 * (REQUEST_DURATION_BUCKETS.length + 1));
    expect(text).toContain('# TYPE http_server_request_duration_seconds histogram');
  });

  it('leaves out families without a sample, and includes the process metrics by default', async () => {
    const bare = await new Metrics({ processMetrics: false }).render();
    expect(bare.trim()).toBe('');
    const metrics = new Metrics();
    metrics.gauge('nothing_yet', 'A gauge whose sources report nothing.', ['x']).source(async () => []);
    const text = await metrics.render();
    expect(text).not.toContain('nothing_yet');
    expect(text).not.toContain('http_server_request_duration_seconds');
    expect(metricValue(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(metricValue(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('reads gauges on scrape from every source, and forgets a removed source', async () => {
    const metrics = new Metrics({ processMetrics: false });
    let rows = 3;
    const gauge = metrics.gauge('outbox_rows', 'Rows.', ['schema']);
    gauge.source(async () => [{ labels: { schema: 'tasks' }, value: rows }]);
    const remove = gauge.source(async () => [{ labels: { schema: 'billing' }, value: 7 }]);
    expect(metrics.gauge('outbox_rows', 'Rows.', ['schema'])).toBe(gauge);
    let text = await metrics.render();
    expect(metricValue(text, 'outbox_rows', { schema: 'tasks' })).toBe(3);
    expect(metricValue(text, 'outbox_rows', { schema: 'billing' })).toBe(7);
    rows = 0;
    remove();
    text = await metrics.render();
    expect(metricValue(text, 'outbox_rows', { schema: 'tasks' })).toBe(0);
    expect(metricValue(text, 'outbox_rows', { schema: 'billing' })).toBeUndefined();
  });

  it('leaves out a source that fails or does not answer in time, counts it, and reports the others', async () => {
    const metrics = new Metrics({ processMetrics: false, sourceTimeoutMs: 50 });
    metrics.gauge('good', 'Answers.').source(async () => [{ value: 1 }]);
    metrics.gauge('broken', 'Fails.').source(() => Promise.reject(new Error('database down')));
    metrics.gauge('slow', 'Hangs.').source(() => new Promise(() => undefined));
    const text = await metrics.render();
    expect(metricValue(text, 'good')).toBe(1);
    expect(metricValue(text, 'broken')).toBeUndefined();
    expect(metricValue(text, 'slow')).toBeUndefined();
    expect(metricValue(text, 'metrics_source_failures_total', { metric: 'broken' })).toBe(1);
    expect(metricValue(text, 'metrics_source_failures_total', { metric: 'slow' })).toBe(1);
  });
});

describe('cached', () => {
  it('reads at most once per ttl, shares a read under way, and does not keep a failure', async () => {
    let now = 0;
    let reads = 0;
    let fail = false;
    const read = cached(
      1000,
      async () => {
        reads += 1;
        if (fail) throw new Error('no');
        return reads;
      },
      () => now,
    );
    expect(await Promise.all([read(), read()])).toEqual([1, 1]);
    now = 999;
    expect(await read()).toBe(1);
    now = 1000;
    fail = true;
    await expect(read()).rejects.toThrow('no');
    fail = false;
    expect(await read()).toBe(3);
    expect(reads).toBe(3);
  });
});
