import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, type Endpoint, type Message } from '../api';
import { formatTime, useI18n, type Translate } from '../i18n';
import { ConfirmButton, ErrorNote, Loading, SecretOnce } from '../ui';
import { Attempts, RedeliverButton } from './deliveries';

export function WebhooksScreen() {
  const { t } = useI18n();
  return (
    <section aria-labelledby="webhooks-heading">
      <h1 id="webhooks-heading">{t('console.webhooks.heading')}</h1>
      <SigningSecret />
      <Endpoints />
    </section>
  );
}

function SigningSecret() {
  const { t } = useI18n();
  const rotate = useMutation({ mutationFn: () => api<{ secret: string }>('POST', '/signing-secret/rotate') });
  return (
    <section class="card" aria-labelledby="secret-heading">
      <h2 id="secret-heading">{t('console.webhooks.secret.heading')}</h2>
      <p>{t('console.webhooks.secret.body')}</p>
      {rotate.data ? (
        <SecretOnce
          label={t('console.webhooks.secret.shown_once')}
          secret={rotate.data.secret}
          doneLabel={t('console.webhooks.secret.dismiss')}
          onDone={() => rotate.reset()}
        />
      ) : (
        <ConfirmButton
          label={t('console.webhooks.secret.rotate')}
          question={t('console.webhooks.secret.confirm')}
          yes={t('console.webhooks.secret.rotate')}
          onConfirm={() => rotate.mutate()}
        />
      )}
      <ErrorNote error={rotate.error} />
    </section>
  );
}

function Endpoints() {
  const { t } = useI18n();
  const client = useQueryClient();
  const endpoints = useQuery({
    queryKey: ['endpoints'],
    queryFn: () => api<{ items: Endpoint[] }>('GET', '/webhook-endpoints'),
  });
  const [secret, setSecret] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['endpoints'] });
  return (
    <section aria-labelledby="endpoints-heading">
      <h2 id="endpoints-heading">{t('console.webhooks.endpoints')}</h2>
      {secret && (
        <SecretOnce
          label={t('console.webhooks.endpoint_secret')}
          secret={secret}
          doneLabel={t('console.webhooks.secret.dismiss')}
          onDone={() => setSecret(null)}
        />
      )}
      <CreateEndpoint
        onCreated={(created) => {
          setSecret(created);
          void refresh();
        }}
      />
      {endpoints.isPending ? (
        <Loading />
      ) : endpoints.error ? (
        <ErrorNote error={endpoints.error} />
      ) : endpoints.data.items.length === 0 ? (
        <p>{t('console.webhooks.endpoints_empty')}</p>
      ) : (
        endpoints.data.items.map((endpoint) => (
          <EndpointCard key={endpoint.id} endpoint={endpoint} onSecret={setSecret} onChanged={refresh} />
        ))
      )}
    </section>
  );
}

/** The event names an endpoint can subscribe to, fetched once. */
function useWebhookEvents() {
  return useQuery({
    queryKey: ['webhook-events'],
    queryFn: () => api<{ items: { name: string; description: string }[] }>('GET', '/webhook-events'),
    staleTime: Infinity,
  });
}

/** The events an endpoint receives: one checkbox per event name. */
function EventChoices(props: { chosen: string[]; onChange: (chosen: string[]) => void }) {
  const { t } = useI18n();
  const events = useWebhookEvents();
  const { chosen } = props;
  return (
    <fieldset>
      <legend>{t('console.webhooks.create.events')}</legend>
      {events.data?.items.map((event) => (
        <label key={event.name} class="check">
          <input
            type="checkbox"
            checked={chosen.includes(event.name)}
            onChange={(e) =>
              props.onChange(
                e.currentTarget.checked ? [...chosen, event.name] : chosen.filter((n) => n !== event.name),
              )
            }
          />
          <code>{event.name}</code> <span class="muted">{event.description}</span>
        </label>
      ))}
      <ErrorNote error={events.error} />
    </fieldset>
  );
}

/** What adding or editing an endpoint sets. */
interface EndpointDraft {
  readonly url: string;
  readonly description: string;
  readonly events: string[];
}

const EMPTY_DRAFT: EndpointDraft = { url: '', description: '', events: [] };

/**
 * The rule an endpoint URL breaks that can be told from its text (the service checks the same, and then where
 * the host's addresses are): null when none. Never names a host or an address.
 */
export function endpointUrlProblem(url: string): UrlProblem | null {
  if (url.trim() === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'malformed';
  }
  if (parsed.protocol !== 'https:') return 'scheme';
  if (parsed.username !== '' || parsed.password !== '' || /^https:\/\/[^/?#]*@/i.test(url.trim()))
    return 'userinfo';
  if (parsed.port !== '') return 'port';
  return null;
}

type UrlProblem = 'malformed' | 'scheme' | 'userinfo' | 'port';

const URL_PROBLEMS = {
  malformed: 'console.webhooks.url_rule.malformed',
  scheme: 'console.webhooks.url_rule.scheme',
  userinfo: 'console.webhooks.url_rule.userinfo',
  port: 'console.webhooks.url_rule.port',
} as const;

/** The service's reasons for refusing an endpoint URL, each as the sentence beside the field. */
const URL_REFUSALS = {
  malformed: 'console.webhooks.url_rule.malformed',
  too_long: 'console.webhooks.url_rule.malformed',
  host: 'console.webhooks.url_rule.malformed',
  scheme: 'console.webhooks.url_rule.scheme',
  credentials: 'console.webhooks.url_rule.userinfo',
  port: 'console.webhooks.url_rule.port',
  unresolvable: 'console.webhooks.url_rule.unresolvable',
  private_address: 'console.webhooks.url_rule.not_public',
} as const;

/** The sentence for the service's refusal of the URL (`reason` of its answer), or null for any other error. */
function refusedUrl(t: Translate, error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.reason) return null;
  const id = URL_REFUSALS[error.reason as keyof typeof URL_REFUSALS];
  return id ? t(id) : null;
}

/** An endpoint's URL, description and events: the fields of adding one and of editing one. */
function EndpointFields(props: {
  value: EndpointDraft;
  onChange: (value: EndpointDraft) => void;
  /** Why the service refused the URL as it was last sent. */
  refused?: string | null;
}) {
  const { t } = useI18n();
  const { value, onChange } = props;
  const problem = endpointUrlProblem(value.url);
  const note = problem ? t(URL_PROBLEMS[problem]) : (props.refused ?? null);
  return (
    <>
      <label>
        <span>{t('console.webhooks.create.url')}</span>
        <input
          type="url"
          required
          placeholder="https://"
          value={value.url}
          aria-invalid={note ? 'true' : undefined}
          aria-describedby="endpoint-url-rule"
          onInput={(e) => onChange({ ...value, url: e.currentTarget.value })}
        />
      </label>
      <p
        id="endpoint-url-rule"
        class={note ? 'error' : 'muted'}
        data-testid="url-rule"
        role={note ? 'alert' : undefined}
      >
        {note ?? t('console.webhooks.url_rule.hint')}
      </p>
      <label>
        <span>{t('console.webhooks.create.description')}</span>
        <input
          maxLength={256}
          value={value.description}
          onInput={(e) => onChange({ ...value, description: e.currentTarget.value })}
        />
      </label>
      <EventChoices chosen={value.events} onChange={(events) => onChange({ ...value, events })} />
      {value.events.length === 0 && (
        <p class="muted" data-testid="events-hint">
          {t('console.webhooks.events_required')}
        </p>
      )}
    </>
  );
}

function CreateEndpoint(props: { onCreated: (secret: string) => void }) {
  const { t } = useI18n();
  const [draft, setDraft] = useState(EMPTY_DRAFT);
  const create = useMutation({
    mutationFn: () =>
      api<Endpoint & { secret: string }>('POST', '/webhook-endpoints', {
        url: draft.url,
        enabledEvents: draft.events,
        ...(draft.description ? { description: draft.description } : {}),
      }),
    onSuccess: (endpoint) => {
      setDraft(EMPTY_DRAFT);
      props.onCreated(endpoint.secret);
    },
  });
  return (
    <form
      class="card form-grid"
      aria-labelledby="create-endpoint-heading"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <h3 id="create-endpoint-heading">{t('console.webhooks.create.heading')}</h3>
      <EndpointFields
        value={draft}
        onChange={(value) => {
          if (value.url !== draft.url) create.reset();
          setDraft(value);
        }}
        refused={refusedUrl(t, create.error)}
      />
      <button
        type="submit"
        disabled={create.isPending || draft.events.length === 0 || endpointUrlProblem(draft.url) !== null}
      >
        {t('console.webhooks.create.submit')}
      </button>
      {refusedUrl(t, create.error) === null && <ErrorNote error={create.error} />}
    </form>
  );
}

function EndpointCard(props: {
  endpoint: Endpoint;
  onSecret: (secret: string) => void;
  onChanged: () => void;
}) {
  const { t, language } = useI18n();
  const { endpoint } = props;
  const [grace, setGrace] = useState('86400');
  const [showMessages, setShowMessages] = useState(false);
  const [editing, setEditing] = useState(false);
  const toggle = useMutation({
    mutationFn: () => api('PATCH', `/webhook-endpoints/${endpoint.id}`, { enabled: !endpoint.enabled }),
    onSuccess: props.onChanged,
  });
  const rotate = useMutation({
    mutationFn: () =>
      api<{ secret: string }>('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`, {
        gracePeriodSeconds: Number.parseInt(grace, 10) || 0,
      }),
    onSuccess: (result) => props.onSecret(result.secret),
  });
  return (
    <article class="card" data-endpoint-id={endpoint.id} aria-label={endpoint.url}>
      <h3>
        <code>{endpoint.url}</code>
      </h3>
      {endpoint.description && <p>{endpoint.description}</p>}
      <p>
        <span class={`badge state-${endpoint.status}`} data-testid="endpoint-status">
          {endpoint.status === 'enabled'
            ? t('console.webhooks.enabled')
            : t('console.webhooks.disabled', { reason: endpoint.disabledReason ?? '' })}
        </span>{' '}
        · {t('console.webhooks.failures', { count: endpoint.consecutiveFailures })} ·{' '}
        {formatTime(language, endpoint.createdAt)}
      </p>
      <p>
        {t('console.webhooks.create.events')}:{' '}
        {endpoint.enabledEvents.map((name) => (
          <code key={name} class="tag">
            {name}
          </code>
        ))}
      </p>
      <div class="row wrap">
        <button type="button" class="secondary" disabled={toggle.isPending} onClick={() => toggle.mutate()}>
          {endpoint.enabled ? t('console.webhooks.disable') : t('console.webhooks.enable')}
        </button>
        <form
          class="inline"
          onSubmit={(event) => {
            event.preventDefault();
            rotate.mutate();
          }}
        >
          <label>
            <span>{t('console.webhooks.grace')}</span>
            <input
              class="narrow"
              type="number"
              min={0}
              step={1}
              value={grace}
              onInput={(e) => setGrace(e.currentTarget.value)}
            />
          </label>
          <button type="submit" disabled={rotate.isPending}>
            {t('console.webhooks.rotate')}
          </button>
        </form>
        <button
          type="button"
          class="secondary"
          aria-expanded={showMessages}
          onClick={() => setShowMessages(!showMessages)}
        >
          {t('console.webhooks.show_messages')}
        </button>
        <button type="button" class="secondary" aria-expanded={editing} onClick={() => setEditing(!editing)}>
          {t('console.webhooks.edit')}
        </button>
      </div>
      <ErrorNote error={toggle.error ?? rotate.error} />
      {editing && (
        <EditEndpoint
          endpoint={endpoint}
          onDone={(changed) => {
            setEditing(false);
            if (changed) props.onChanged();
          }}
        />
      )}
      {showMessages && <EndpointMessages endpointId={endpoint.id} />}
    </article>
  );
}

/** Changes an endpoint's URL, description and events (PATCH); its secret and state stay as they are. */
function EditEndpoint(props: { endpoint: Endpoint; onDone: (changed: boolean) => void }) {
  const { t } = useI18n();
  const { endpoint } = props;
  const [draft, setDraft] = useState<EndpointDraft>({
    url: endpoint.url,
    description: endpoint.description ?? '',
    events: [...endpoint.enabledEvents],
  });
  const save = useMutation({
    // Only what changed is sent: a field left as it was is left alone.
    mutationFn: async () => {
      const same = (a: readonly string[], b: readonly string[]) =>
        a.length === b.length && a.every((name) => b.includes(name));
      const changes = {
        ...(draft.url !== endpoint.url ? { url: draft.url } : {}),
        ...(draft.description !== (endpoint.description ?? '') ? { description: draft.description } : {}),
        ...(same(draft.events, endpoint.enabledEvents) ? {} : { enabledEvents: draft.events }),
      };
      if (Object.keys(changes).length === 0) return false;
      await api<Endpoint>('PATCH', `/webhook-endpoints/${endpoint.id}`, changes);
      return true;
    },
    onSuccess: (changed) => props.onDone(changed),
  });
  return (
    <form
      class="form-grid"
      aria-label={t('console.webhooks.edit')}
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <EndpointFields
        value={draft}
        onChange={(value) => {
          if (value.url !== draft.url) save.reset();
          setDraft(value);
        }}
        refused={refusedUrl(t, save.error)}
      />
      <div class="row">
        <button
          type="submit"
          disabled={save.isPending || draft.events.length === 0 || endpointUrlProblem(draft.url) !== null}
        >
          {t('console.save')}
        </button>
        <button type="button" class="secondary" onClick={() => props.onDone(false)}>
          {t('console.cancel')}
        </button>
      </div>
      {refusedUrl(t, save.error) === null && <ErrorNote error={save.error} />}
    </form>
  );
}

function EndpointMessages(props: { endpointId: string }) {
  const { t } = useI18n();
  const key = ['endpoint-messages', props.endpointId];
  const messages = useQuery({
    queryKey: key,
    queryFn: () =>
      api<{ items: Message[] }>('GET', `/webhook-endpoints/${props.endpointId}/messages?limit=20`),
    refetchInterval: 3000,
  });
  if (messages.isPending) return <Loading />;
  if (messages.error) return <ErrorNote error={messages.error} />;
  return (
    <section aria-label={t('console.webhooks.messages')}>
      <h4>{t('console.webhooks.messages')}</h4>
      {messages.data.items.length === 0 ? (
        <p>{t('console.webhooks.no_messages')}</p>
      ) : (
        messages.data.items.map((message) => (
          <div class="message" key={message.messageId} data-testid="endpoint-message">
            <p>
              <code>{message.messageId}</code> · <code>{message.eventType}</code> ·{' '}
              <span class={`badge state-${message.state}`}>{message.state}</span>
            </p>
            <Attempts attempts={message.attemptLog} />
            <RedeliverButton id={message.messageId} refresh={key} />
          </div>
        ))
      )}
    </section>
  );
}
