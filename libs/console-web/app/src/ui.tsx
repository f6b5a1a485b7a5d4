import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { api, type ApiKey } from './api';
import { useI18n } from './i18n';
import { readableUsd } from './money';

/** A USD amount as a person reads it (to the cent, or two significant digits below one), exact on hover. */
export function Money(props: { amount: string | undefined | null; currency?: string }) {
  if (props.amount === undefined || props.amount === null || props.amount === '') return <>—</>;
  const shown = readableUsd(props.amount);
  const suffix = props.currency ? ` ${props.currency}` : '';
  return (
    <span class="money" title={`${props.amount} USD`} data-exact={props.amount}>
      {shown}
      {suffix}
    </span>
  );
}

export function ErrorNote(props: { error: unknown }) {
  const { t } = useI18n();
  if (!props.error) return null;
  const message = props.error instanceof Error ? props.error.message : String(props.error);
  return (
    <p class="error" role="alert">
      {t('console.error', { message })}
    </p>
  );
}

export function Loading() {
  const { t } = useI18n();
  return (
    <p class="muted" role="status">
      {t('console.loading')}
    </p>
  );
}

/** A secret shown once: selectable text, a copy button, and the warning above it. */
export function SecretOnce(props: {
  label: string;
  warning?: string;
  secret: string;
  onDone?: () => void;
  /** The button that hides it: "I have stored the key" unless said otherwise (a signing secret). */
  doneLabel?: string;
}) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  return (
    <section class="secret" aria-label={props.label}>
      {props.warning && (
        <p class="warning" role="alert">
          {props.warning}
        </p>
      )}
      <p>{props.label}</p>
      <code class="secret-value" data-testid="secret">
        {props.secret}
      </code>
      <div class="row">
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard
              ?.writeText(props.secret)
              .then(() => setCopied(true))
              .catch(() => setCopied(false));
          }}
        >
          {t('console.copy')}
        </button>
        {props.onDone && (
          <button type="button" class="secondary" onClick={props.onDone}>
            {props.doneLabel ?? t('console.keys.dismiss')}
          </button>
        )}
        {copied && <span role="status">{t('console.copied')}</span>}
      </div>
    </section>
  );
}

/** An action that asks first, in place (no modal to trap focus in). */
export function ConfirmButton(props: {
  label: string;
  question: string;
  yes: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const { t } = useI18n();
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" class="danger" disabled={props.disabled} onClick={() => setAsking(true)}>
        {props.label}
      </button>
    );
  return (
    <span class="confirm" role="group" aria-label={props.question}>
      <span>{props.question}</span>
      <button
        type="button"
        class="danger"
        autoFocus
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {props.yes}
      </button>
      <button type="button" class="secondary" onClick={() => setAsking(false)}>
        {t('console.cancel')}
      </button>
    </span>
  );
}

/** The account's keys (one cache entry, `['keys']`, shared by every screen that shows them). */
export function useKeys() {
  return useQuery({ queryKey: ['keys'], queryFn: () => api<{ items: ApiKey[] }>('GET', '/keys') });
}

/** A filter by key: every key of the account, or all of them (the empty value). */
export function KeySelect(props: {
  value: string;
  keys: readonly ApiKey[] | undefined;
  onChange: (keyId: string) => void;
}) {
  const { t } = useI18n();
  return (
    <label>
      <span>{t('console.tasks.key')}</span>
      <select value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">{t('console.tasks.all_keys')}</option>
        {props.keys?.map((key) => (
          <option key={key.keyId} value={key.keyId}>
            {key.name} ({key.prefix})
          </option>
        ))}
      </select>
    </label>
  );
}
