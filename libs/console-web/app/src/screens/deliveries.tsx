import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Attempt } from '../api';
import { formatTime, useI18n } from '../i18n';
import { ErrorNote } from '../ui';

type Translate = ReturnType<typeof useI18n>['t'];

/** The outcomes the webhooks service records, each as a sentence; an unknown one as its code. */
const OUTCOMES = {
  delivered: 'console.webhooks.outcome.delivered',
  status: 'console.webhooks.outcome.status',
  redirect: 'console.webhooks.outcome.redirect',
  timeout: 'console.webhooks.outcome.timeout',
  connection: 'console.webhooks.outcome.connection',
  blocked_address: 'console.webhooks.outcome.blocked_address',
  invalid_url: 'console.webhooks.outcome.invalid_url',
  no_secret: 'console.webhooks.outcome.no_secret',
  unsendable: 'console.webhooks.outcome.unsendable',
} as const;

function outcomeText(t: Translate, outcome: string): string {
  const id = OUTCOMES[outcome as keyof typeof OUTCOMES];
  return id ? t(id) : outcome;
}

/** A delivery's attempts, oldest first: how each ended, its HTTP status, its error class and its duration. */
export function Attempts(props: { attempts: readonly Attempt[] }) {
  const { t, language } = useI18n();
  if (props.attempts.length === 0) return <p class="muted">{t('console.webhooks.no_attempts')}</p>;
  return (
    <div class="table-wrap">
      <table class="compact">
        <thead>
          <tr>
            <th scope="col">{t('console.webhooks.attempt')}</th>
            <th scope="col">{t('console.webhooks.time')}</th>
            <th scope="col">{t('console.webhooks.outcome')}</th>
            <th scope="col">{t('console.webhooks.status')}</th>
            <th scope="col">{t('console.webhooks.duration')}</th>
          </tr>
        </thead>
        <tbody>
          {props.attempts.map((attempt) => (
            <tr key={attempt.n}>
              <td>{attempt.n}</td>
              <td>{formatTime(language, attempt.attemptedAt)}</td>
              <td data-testid="attempt-outcome">
                {outcomeText(t, attempt.outcome)}
                {attempt.error && (
                  <>
                    {' '}
                    (<code>{attempt.error}</code>)
                  </>
                )}
              </td>
              <td>{attempt.status ?? '—'}</td>
              <td>{attempt.durationMs}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Sends a delivery (whd_) or an endpoint message (msg_) again now, then refreshes `refresh`. */
export function RedeliverButton(props: { id: string; refresh: readonly unknown[] }) {
  const { t } = useI18n();
  const client = useQueryClient();
  const redeliver = useMutation({
    mutationFn: () => api('POST', `/webhook-deliveries/${props.id}/redeliver`),
    onSuccess: () => client.invalidateQueries({ queryKey: props.refresh }),
  });
  return (
    <span>
      <button
        type="button"
        class="secondary"
        disabled={redeliver.isPending}
        onClick={() => redeliver.mutate()}
      >
        {t('console.webhooks.redeliver')}
      </button>
      {redeliver.isSuccess && <span role="status"> {t('console.webhooks.redelivered')}</span>}
      <ErrorNote error={redeliver.error} />
    </span>
  );
}
