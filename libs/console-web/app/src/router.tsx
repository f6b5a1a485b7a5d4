import { useEffect, useState } from 'preact/hooks';

/** The app's own paths under /console (the server answers index.html for each). */
export const BASE = '/console';

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
window.addEventListener('popstate', notify);

export function navigate(path: string, replace = false): void {
  const url = `${BASE}${path}`;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  notify();
}

/** The path below /console ('/keys', '/tasks/job_1') and the query, re-rendered on every navigation. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const read = () => ({
    path: location.pathname.slice(BASE.length) || '/',
    search: new URLSearchParams(location.search),
  });
  const [state, setState] = useState(read);
  useEffect(() => {
    const update = () => setState(read());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return state;
}

/** A link that navigates inside the app (and still works as a link: new tab, keyboard). */
export function Link(props: { href: string; children: preact.ComponentChildren; current?: boolean }) {
  return (
    <a
      href={`${BASE}${props.href}`}
      aria-current={props.current ? 'page' : undefined}
      onClick={(event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}
