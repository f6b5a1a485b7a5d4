import { useState } from 'preact/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiKey } from '../api';
import { formatTime, useI18n } from '../i18n';
import { ConfirmButton, ErrorNote, Loading, Money, SecretOnce, useKeys } from '../ui';

/** A USD decimal as the API takes it (a string, never a float). */
const USD = /^(0|[1-9]\d{0,14})(\.\d{1,9})?$/;

export function KeysScreen() {
  const { t, language } = useI18n();
  const client = useQueryClient();
  const keys = useKeys();
  const refresh = () => client.invalidateQueries({ queryKey: ['keys'] });
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: { name: string; dailyCap?: string }) =>
      api<{ keyId: string; apiKey: string }>('POST', '/keys', body),
    onSuccess: (result) => {
      setCreated(result.apiKey);
      void refresh();
    },
  });
  const update = useMutation({
    mutationFn: (change: { keyId: string; dailyCap: string | null }) =>
      api('PATCH', `/keys/${change.keyId}`, { dailyCap: change.dailyCap }),
    onSuccess: refresh,
  });
  const revoke = useMutation({
    mutationFn: (keyId: string) => api('POST', `/keys/${keyId}/revoke`),
    onSuccess: refresh,
  });

  return (
    <section aria-labelledby="keys-heading">
      <h1 id="keys-heading">{t('console.keys.heading')}</h1>
      {created && (
        <SecretOnce
          label={t('console.keys.new_key')}
          warning={t('console.keys.created_once')}
          secret={created}
          onDone={() => setCreated(null)}
        />
      )}
      <CreateKey pending={create.isPending} onCreate={(body) => create.mutate(body)} />
      <ErrorNote error={create.error ?? update.error ?? revoke.error} />
      {keys.isPending ? (
        <Loading />
      ) : keys.error ? (
        <ErrorNote error={keys.error} />
      ) : keys.data.items.length === 0 ? (
        <p>{t('console.keys.empty')}</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('console.keys.prefix')}</th>
                <th scope="col">{t('console.keys.name')}</th>
                <th scope="col">{t('console.keys.created')}</th>
                <th scope="col">{t('console.keys.last_used')}</th>
                <th scope="col">{t('console.keys.daily_cap')}</th>
                <th scope="col">{t('console.keys.spent_today')}</th>
                <th scope="col">{t('console.keys.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.items.map((key) => (
                <tr key={key.keyId} data-key-id={key.keyId}>
                  <td>
                    <code>{key.prefix}</code>
                  </td>
                  <td>{key.name}</td>
                  <td>{formatTime(language, key.createdAt)}</td>
                  <td>{key.lastUsedAt ? formatTime(language, key.lastUsedAt) : t('console.never')}</td>
                  <td>{key.dailyCap ?? t('console.keys.no_cap')}</td>
                  <td>
                    <Money amount={key.spentToday} />
                  </td>
                  <td>
                    {key.revoked ? (
                      <span class="badge">{t('console.keys.revoked')}</span>
                    ) : (
                      <div class="actions">
                        <CapEditor
                          apiKey={key}
                          onSave={(dailyCap) => update.mutate({ keyId: key.keyId, dailyCap })}
                        />
                        <ConfirmButton
                          label={t('console.keys.revoke')}
                          question={t('console.keys.revoke_confirm', { name: key.name })}
                          yes={t('console.keys.revoke_yes')}
                          onConfirm={() => revoke.mutate(key.keyId)}
                        />
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function CreateKey(props: {
  pending: boolean;
  onCreate: (body: { name: string; dailyCap?: string }) => void;
}) {
  const { t } = useI18n();
  const [name, setName] = useState('');
  const [cap, setCap] = useState('');
  const capInvalid = cap !== '' && !USD.test(cap);
  return (
    <form
      class="card form-grid"
      aria-labelledby="create-key-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (capInvalid || !name.trim()) return;
        props.onCreate({ name: name.trim(), ...(cap ? { dailyCap: cap } : {}) });
        setName('');
        setCap('');
      }}
    >
      <h2 id="create-key-heading">{t('console.keys.create.heading')}</h2>
      <label>
        <span>{t('console.keys.name')}</span>
        <input required maxLength={64} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <div class="field">
        <label>
          <span>{t('console.keys.daily_cap')}</span>
          <input
            inputMode="decimal"
            value={cap}
            aria-invalid={capInvalid}
            aria-describedby="cap-hint"
            onInput={(e) => setCap(e.currentTarget.value.trim())}
          />
        </label>
        <small id="cap-hint">
          {capInvalid ? t('console.keys.cap_invalid') : t('console.keys.create.cap_hint')}
        </small>
      </div>
      <button type="submit" disabled={props.pending || capInvalid}>
        {t('console.keys.create.submit')}
      </button>
    </form>
  );
}

function CapEditor(props: { apiKey: ApiKey; onSave: (cap: string | null) => void }) {
  const { t } = useI18n();
  const [cap, setCap] = useState(props.apiKey.dailyCap ?? '');
  const invalid = !USD.test(cap);
  return (
    <form
      class="inline"
      onSubmit={(event) => {
        event.preventDefault();
        if (!invalid) props.onSave(cap);
      }}
    >
      <input
        class="narrow"
        inputMode="decimal"
        aria-label={t('console.keys.cap_for', { name: props.apiKey.name })}
        aria-invalid={cap !== '' && invalid}
        value={cap}
        onInput={(e) => setCap(e.currentTarget.value.trim())}
      />
      <button type="submit" disabled={invalid}>
        {t('console.keys.set_cap')}
      </button>
      {props.apiKey.dailyCap !== null && (
        <button
          type="button"
          class="secondary"
          onClick={() => {
            setCap('');
            props.onSave(null);
          }}
        >
          {t('console.keys.clear_cap')}
        </button>
      )}
    </form>
  );
}
