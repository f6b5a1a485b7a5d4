import { useEffect, useMemo, useState } from 'preact/hooks';
import { lazy, Suspense } from 'preact/compat';
import { useQueryClient } from '@tanstack/react-query';
import { en, type ConsoleCatalog } from '@console-i18n/en';
import { api, setApiLanguage, setCsrfToken, whenSignedOut, type Session } from './api';
import {
  I18nContext,
  LANGUAGE_NAMES,
  SUPPORTED_LANGUAGES,
  initialLanguage,
  loadCatalog,
  rememberLanguage,
  translator,
  useI18n,
  type Language,
} from './i18n';
import { Link, navigate, useLocation } from './router';
import { ErrorNote, Loading } from './ui';
import { KeysScreen } from './screens/keys';
import { BalanceScreen } from './screens/balance';
import { TasksScreen } from './screens/tasks';
import { TaskScreen } from './screens/task';
import { WebhooksScreen } from './screens/webhooks';

// The plot library is only loaded with the usage screen.
const UsageScreen = lazy(() => import('./screens/usage').then((m) => ({ default: m.UsageScreen })));

type State =
  | { readonly kind: 'starting' }
  | { readonly kind: 'signed-in'; readonly session: Session }
  | { readonly kind: 'signed-out' }
  | { readonly kind: 'link-failed'; readonly message: string };

/** The sign-in link's token, from the fragment (browsers never send it to a server). */
const linkToken = (): string | null => new URLSearchParams(location.hash.slice(1)).get('token');

async function start(): Promise<State> {
  const token = location.pathname.endsWith('/sign-in') ? linkToken() : null;
  if (token !== null) {
    // The token leaves the address bar (and the history entry) before anything else happens.
    history.replaceState(null, '', location.pathname);
    try {
      const session = await api<Session>('POST', '/sign-in', { token });
      setCsrfToken(session.csrfToken);
      navigate('/keys', true);
      return { kind: 'signed-in', session };
    } catch (error) {
      return { kind: 'link-failed', message: (error as Error).message };
    }
  }
  try {
    const session = await api<Session>('GET', '/session');
    setCsrfToken(session.csrfToken);
    if (location.pathname.endsWith('/sign-in') || /\/console\/?$/.test(location.pathname))
      navigate('/keys', true);
    return { kind: 'signed-in', session };
  } catch {
    return { kind: 'signed-out' };
  }
}

export function App() {
  const [state, setState] = useState<State>({ kind: 'starting' });
  const [language, setLanguage] = useState<Language>(() => initialLanguage(null));
  const [catalog, setCatalog] = useState<ConsoleCatalog>(en);
  const queries = useQueryClient();

  useEffect(() => {
    whenSignedOut(() => {
      setCsrfToken(null);
      queries.clear();
      setState({ kind: 'signed-out' });
    });
    void start().then((next) => {
      if (next.kind === 'signed-in' && !localStorage.getItem('console.language'))
        setLanguage(initialLanguage(next.session.language));
      setState(next);
    });
  }, []);

  useEffect(() => {
    setApiLanguage(language);
    document.documentElement.lang = language;
    let current = true;
    void loadCatalog(language).then((loaded) => current && setCatalog(loaded));
    return () => void (current = false);
  }, [language]);

  const i18n = useMemo(
    () => ({
      language,
      t: translator(catalog),
      setLanguage: (next: Language) => {
        rememberLanguage(next);
        setLanguage(next);
        // Messages of the API come in the new language too.
        void queries.invalidateQueries();
      },
    }),
    [language, catalog],
  );
  useEffect(() => void (document.title = i18n.t('console.title')), [i18n]);

  return (
    <I18nContext.Provider value={i18n}>
      <Shell
        state={state}
        onSignOut={() => {
          void api('POST', '/sign-out')
            .catch(() => undefined)
            .then(() => {
              setCsrfToken(null);
              queries.clear();
              setState({ kind: 'signed-out' });
            });
        }}
      />
    </I18nContext.Provider>
  );
}

function LanguagePicker() {
  const { t, language, setLanguage } = useI18n();
  return (
    <label class="language">
      <span>{t('console.language')}</span>
      <select
        value={language}
        onChange={(event) => setLanguage((event.target as HTMLSelectElement).value as Language)}
      >
        {SUPPORTED_LANGUAGES.map((tag) => (
          <option key={tag} value={tag} lang={tag}>
            {LANGUAGE_NAMES[tag]}
          </option>
        ))}
      </select>
    </label>
  );
}

const SECTIONS = [
  ['/keys', 'console.nav.keys'],
  ['/balance', 'console.nav.balance'],
  ['/usage', 'console.nav.usage'],
  ['/tasks', 'console.nav.tasks'],
  ['/webhooks', 'console.nav.webhooks'],
] as const;

function Shell(props: { state: State; onSignOut: () => void }) {
  const { t } = useI18n();
  const { path } = useLocation();
  const { state } = props;
  const signedIn = state.kind === 'signed-in';
  return (
    <>
      <a class="skip" href="#main">
        {t('console.skip')}
      </a>
      <header class="top">
        <strong class="brand">{t('console.title')}</strong>
        {signedIn && (
          <nav aria-label={t('console.nav')}>
            <ul>
              {SECTIONS.map(([href, label]) => (
                <li key={href}>
                  <Link href={href} current={path === href || path.startsWith(`${href}/`)}>
                    {t(label)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div class="tools">
          <LanguagePicker />
          {signedIn && (
            <button type="button" class="secondary" onClick={props.onSignOut}>
              {t('console.sign_out')}
            </button>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {state.kind === 'starting' && <Loading />}
        {state.kind === 'signed-out' && <SignedOut />}
        {state.kind === 'link-failed' && <SignedOut failed={state.message} />}
        {state.kind === 'signed-in' && (
          <>
            <p class="muted account">{t('console.account', { accountId: state.session.accountId })}</p>
            <Screen path={path} />
          </>
        )}
      </main>
    </>
  );
}

function SignedOut(props: { failed?: string }) {
  const { t } = useI18n();
  return (
    <section class="signed-out">
      <h1>{t('console.signed_out.heading')}</h1>
      {props.failed && (
        <p class="error" role="alert">
          {t('console.signin.failed', { message: props.failed })}
        </p>
      )}
      <p>{t('console.signed_out.body')}</p>
    </section>
  );
}

function Screen(props: { path: string }) {
  const { t } = useI18n();
  const { path } = props;
  if (path === '/keys' || path === '/') return <KeysScreen />;
  if (path === '/balance') return <BalanceScreen />;
  if (path === '/usage')
    return (
      <Suspense fallback={<Loading />}>
        <UsageScreen />
      </Suspense>
    );
  if (path === '/tasks') return <TasksScreen />;
  if (path.startsWith('/tasks/')) return <TaskScreen taskId={decodeURIComponent(path.slice(7))} />;
  if (path === '/webhooks') return <WebhooksScreen />;
  return <ErrorNote error={t('console.not_found')} />;
}
