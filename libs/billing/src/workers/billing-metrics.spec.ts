import { Metrics } from '@gen/observability';
import { DATABASE_KINDS, metricValue } from '@gen/testing';
import { openBillingFixture, type BillingFixture } from '../testing/billing-fixture';
import { BillingMetrics, HOLD_METRICS_CACHE_MS } from './billing-metrics';

describe.each(DATABASE_KINDS)('billing metrics on %s', (kind) => {
  let f: BillingFixture;

  beforeAll(async () => {
    f = await openBillingFixture(kind);
  });
  afterAll(() => f.close());

  const reserve = (id: string, amount: string) =>
    f.holds.reserve({ holdId: id, accountId: 'acc_m', keyId: 'key_m', model: 'm', amount, dailyCap: '1000' });
  const scrape = async (metrics: Metrics) => {
    await new Promise((r) => setTimeout(r, HOLD_METRICS_CACHE_MS + 20));
    const text = await metrics.render();
    return { holds: metricValue(text, 'billing_open_holds'), usd: metricValue(text, 'billing_held_usd') };
  };

  it('counts the holds reserved or confirmed and what they hold in USD, not the final ones', async () => {
    const metrics = new Metrics({ processMetrics: false });
    new BillingMetrics(f.options, f.repository, metrics).onApplicationBootstrap();
    expect(await scrape(metrics)).toEqual({ holds: 0, usd: 0 });

    await f.credit('acc_m', '100');
    await reserve('job_m_1', '0.1');
    await reserve('job_m_2', '0.2');
    await reserve('job_m_3', '1.000000001');
    await f.holds.confirm('job_m_2');
    // 0.1 + 0.2 + 1.000000001 summed as integers: exactly 1.300000001, not a float sum's 1.3000000010000001.
    expect(await scrape(metrics)).toEqual({ holds: 3, usd: 1.300000001 });

    await f.holds.settle('job_m_2', '0.15');
    await f.holds.release('job_m_3');
    expect(await scrape(metrics)).toEqual({ holds: 1, usd: 0.1 });
  });

  it('reports nothing where billing does not run its background work', async () => {
    const metrics = new Metrics({ processMetrics: false });
    new BillingMetrics({ ...f.options, workers: false }, f.repository, metrics).onApplicationBootstrap();
    const text = await metrics.render();
    expect(text).not.toContain('billing_');
  });
});
