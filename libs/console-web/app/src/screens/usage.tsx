import { useEffect, useRef, useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { api, query, type Usage } from '../api';
import { useI18n } from '../i18n';
import { formatMicroUsd, microUsd, readableUsd } from '../money';
import { ErrorNote, KeySelect, Loading, Money, useKeys } from '../ui';

export function UsageScreen() {
  const { t } = useI18n();
  const [range, setRange] = useState<{ from?: string; to?: string; keyId?: string }>({});
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [keyId, setKeyId] = useState('');
  const keys = useKeys();
  const usage = useQuery({
    queryKey: ['usage', range.from, range.to, range.keyId],
    queryFn: () => api<Usage>('GET', `/usage${query(range)}`),
  });
  useEffect(() => {
    // The API's default range fills the pickers on the first answer.
    if (usage.data && !from && !to) {
      setFrom(usage.data.from);
      setTo(usage.data.to);
    }
  }, [usage.data]);

  return (
    <section aria-labelledby="usage-heading">
      <h1 id="usage-heading">{t('console.usage.heading')}</h1>
      <form
        class="card row wrap"
        onSubmit={(event) => {
          event.preventDefault();
          setRange({ from: from || undefined, to: to || undefined, keyId: keyId || undefined });
        }}
      >
        <label>
          <span>{t('console.usage.from')}</span>
          <input type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        </label>
        <label>
          <span>{t('console.usage.to')}</span>
          <input type="date" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        </label>
        <KeySelect value={keyId} keys={keys.data?.items} onChange={setKeyId} />
        <button type="submit">{t('console.usage.apply')}</button>
        <small class="muted">{t('console.usage.range_hint')}</small>
      </form>
      {usage.isPending ? (
        <Loading />
      ) : usage.error ? (
        <ErrorNote error={usage.error} />
      ) : (
        <UsageFigures usage={usage.data} />
      )}
    </section>
  );
}

function UsageFigures(props: { usage: Usage }) {
  const { t } = useI18n();
  const { usage } = props;
  return (
    <>
      <p data-testid="usage-totals">
        {t('console.usage.totals', { calls: usage.totals.calls, spend: readableUsd(usage.totals.spend) })}
      </p>
      <h2>{t('console.usage.chart')}</h2>
      {usage.days.length === 0 ? <p>{t('console.usage.empty')}</p> : <DailyPlot usage={usage} />}
      <details>
        <summary>{t('console.usage.chart')}</summary>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('console.usage.day')}</th>
                <th scope="col">{t('console.usage.calls')}</th>
                <th scope="col">{t('console.usage.spend')}</th>
              </tr>
            </thead>
            <tbody>
              {usage.days.map((day) => (
                <tr key={day.date}>
                  <td>{day.date}</td>
                  <td>{day.calls}</td>
                  <td>
                    <Money amount={day.spend} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
      <h2>{t('console.usage.by_model')}</h2>
      {usage.models.length === 0 ? (
        <p>{t('console.usage.empty')}</p>
      ) : (
        <div class="table-wrap">
          <table data-testid="usage-models">
            <thead>
              <tr>
                <th scope="col">{t('console.usage.model')}</th>
                <th scope="col">{t('console.usage.calls')}</th>
                <th scope="col">{t('console.usage.spend')}</th>
              </tr>
            </thead>
            <tbody>
              {usage.models.map((model) => (
                <tr key={model.model}>
                  <td>{model.model}</td>
                  <td>{model.calls}</td>
                  <td>
                    <Money amount={model.spend} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** Every day of the range (days without calls are zero), calls on the left axis, spend on the right. */
function series(usage: Usage): uPlot.AlignedData {
  const byDate = new Map(usage.days.map((day) => [day.date, day]));
  const xs: number[] = [];
  const calls: number[] = [];
  const spend: number[] = [];
  for (
    let day = Date.parse(`${usage.from}T00:00:00Z`);
    day < Date.parse(`${usage.to}T00:00:00Z`);
    day += 86_400_000
  ) {
    const found = byDate.get(new Date(day).toISOString().slice(0, 10));
    xs.push(day / 1000);
    calls.push(found?.calls ?? 0);
    spend.push(found ? microUsd(found.spend) : 0);
  }
  return [xs, calls, spend];
}

function DailyPlot(props: { usage: Usage }) {
  const { t } = useI18n();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = () => Math.max(280, Math.min(element.clientWidth, 1100));
    const plot = new uPlot(
      {
        width: width(),
        height: 280,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, spend: { auto: true } },
        series: [
          {},
          { label: t('console.usage.calls'), stroke: '#1d4ed8', width: 2, points: { show: true } },
          {
            label: t('console.usage.spend'),
            stroke: '#b45309',
            width: 2,
            scale: 'spend',
            value: (_u, v) => (v == null ? '' : formatMicroUsd(v)),
            points: { show: true },
          },
        ],
        axes: [
          // One tick per whole day (or per 2, 7, 14 or 30 days on a long range), labelled by its UTC date.
          {
            space: 48,
            incrs: [86_400, 2 * 86_400, 7 * 86_400, 14 * 86_400, 30 * 86_400],
            values: (_u, ticks) => ticks.map((ts) => new Date(ts * 1000).toISOString().slice(5, 10)),
          },
          { label: t('console.usage.calls') },
          {
            side: 1,
            scale: 'spend',
            label: t('console.usage.spend'),
            grid: { show: false },
            values: (_u, ticks) => ticks.map(formatMicroUsd),
          },
        ],
      },
      series(props.usage),
      element,
    );
    const resize = () => plot.setSize({ width: width(), height: 280 });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [props.usage, t]);
  return <div ref={box} class="plot" role="img" aria-label={t('console.usage.chart')} />;
}
