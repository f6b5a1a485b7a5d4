import { useQuery } from '@tanstack/react-query';
import { api, type Balance } from '../api';
import { formatTime, useI18n } from '../i18n';
import { ErrorNote, Loading, Money } from '../ui';

export function BalanceScreen() {
  const { t, language } = useI18n();
  const balance = useQuery({ queryKey: ['balance'], queryFn: () => api<Balance>('GET', '/balance') });
  if (balance.isPending) return <Loading />;
  if (balance.error) return <ErrorNote error={balance.error} />;
  const b = balance.data;
  return (
    <section aria-labelledby="balance-heading">
      <h1 id="balance-heading">{t('console.balance.heading')}</h1>
      <dl class="figures">
        <div>
          <dt>{t('console.balance.available')}</dt>
          <dd data-testid="available">
            <Money amount={b.available} currency={b.currency} />
          </dd>
        </div>
        <div>
          <dt>{t('console.balance.held')}</dt>
          <dd>
            <Money amount={b.held} currency={b.currency} />
          </dd>
        </div>
        <div>
          <dt>{t('console.balance.total')}</dt>
          <dd>
            <Money amount={b.total} currency={b.currency} />
          </dd>
        </div>
      </dl>
      <h2>{t('console.balance.sources')}</h2>
      <dl class="figures">
        <div>
          <dt>{t('console.balance.wallet')}</dt>
          <dd>
            <Money amount={b.sources.wallet} currency={b.currency} />
          </dd>
        </div>
        <div>
          <dt>{t('console.balance.credit')}</dt>
          <dd>
            <Money amount={b.sources.credit} currency={b.currency} />
          </dd>
        </div>
      </dl>
      <h3>{t('console.balance.grants')}</h3>
      {b.sources.grants.length === 0 ? (
        <p>{t('console.balance.no_grants')}</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('console.balance.grant_model')}</th>
                <th scope="col">{t('console.balance.grant_available')}</th>
                <th scope="col">{t('console.balance.grant_expires')}</th>
              </tr>
            </thead>
            <tbody>
              {b.sources.grants.map((grant) => (
                <tr key={grant.id}>
                  <td>{grant.model}</td>
                  <td>
                    <Money amount={grant.available} />
                  </td>
                  <td>{grant.expiresAt ? formatTime(language, grant.expiresAt) : t('console.never')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
