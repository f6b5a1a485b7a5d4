import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { api, query, type TaskItem } from '../api';
import { formatTime, useI18n } from '../i18n';
import { Link } from '../router';
import { ErrorNote, KeySelect, Loading, Money, useKeys } from '../ui';

const STATES = ['queued', 'running', 'succeeded', 'failed', 'canceled', 'expired'] as const;

export function TasksScreen() {
  const { t, language } = useI18n();
  const [keyId, setKeyId] = useState('');
  const [state, setState] = useState('');
  // The model and the date range apply on "Show" (typed, not picked); the API's default range is 7 days.
  const [typed, setTyped] = useState({ model: '', from: '', to: '' });
  const [applied, setApplied] = useState({ model: '', from: '', to: '' });
  // The cursors of the pages before this one: "Newer" pops, "Older" pushes.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const keys = useKeys();
  const tasks = useQuery({
    queryKey: ['tasks', keyId, state, applied.model, applied.from, applied.to, cursor],
    queryFn: () =>
      api<{ items: TaskItem[]; nextCursor?: string }>(
        'GET',
        // A cursor freezes the filters: they are sent again unchanged.
        `/tasks${query({ keyId, state, ...applied, cursor, limit: '20' })}`,
      ),
  });
  const filter = (apply: () => void) => {
    apply();
    setCursors([]);
  };
  const keyName = (id: string) => keys.data?.items.find((k) => k.keyId === id)?.name ?? id;

  return (
    <section aria-labelledby="tasks-heading">
      <h1 id="tasks-heading">{t('console.tasks.heading')}</h1>
      <div class="card row wrap">
        <KeySelect value={keyId} keys={keys.data?.items} onChange={(id) => filter(() => setKeyId(id))} />
        <label>
          <span>{t('console.tasks.state')}</span>
          <select value={state} onChange={(e) => filter(() => setState(e.currentTarget.value))}>
            <option value="">{t('console.tasks.all_states')}</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <form
          class="row wrap"
          onSubmit={(event) => {
            event.preventDefault();
            filter(() => setApplied({ ...typed }));
          }}
        >
          <label>
            <span>{t('console.tasks.model')}</span>
            <input
              value={typed.model}
              maxLength={256}
              placeholder="local/sketch"
              onInput={(e) => setTyped({ ...typed, model: e.currentTarget.value.trim() })}
            />
          </label>
          <label>
            <span>{t('console.usage.from')}</span>
            <input
              type="date"
              value={typed.from}
              onInput={(e) => setTyped({ ...typed, from: e.currentTarget.value })}
            />
          </label>
          <label>
            <span>{t('console.usage.to')}</span>
            <input
              type="date"
              value={typed.to}
              onInput={(e) => setTyped({ ...typed, to: e.currentTarget.value })}
            />
          </label>
          <button type="submit">{t('console.usage.apply')}</button>
        </form>
      </div>
      {tasks.isPending ? (
        <Loading />
      ) : tasks.error ? (
        <ErrorNote error={tasks.error} />
      ) : tasks.data.items.length === 0 ? (
        <p>{t('console.tasks.empty')}</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('console.tasks.task')}</th>
                <th scope="col">{t('console.tasks.model')}</th>
                <th scope="col">{t('console.tasks.state')}</th>
                <th scope="col">{t('console.tasks.key')}</th>
                <th scope="col">{t('console.tasks.created')}</th>
                <th scope="col">{t('console.tasks.cost')}</th>
              </tr>
            </thead>
            <tbody>
              {tasks.data.items.map((task) => (
                <tr key={task.taskId}>
                  <td>
                    <Link href={`/tasks/${task.taskId}`}>
                      <code>{task.taskId}</code>
                    </Link>
                  </td>
                  <td>{task.model}</td>
                  <td>
                    <span class={`badge state-${task.state}`}>{task.state}</span>
                  </td>
                  <td>{keyName(task.keyId)}</td>
                  <td>{formatTime(language, task.createdAt)}</td>
                  <td>
                    <Money amount={task.cost} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="row">
        <button
          type="button"
          class="secondary"
          disabled={cursors.length === 0}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          {t('console.tasks.newer')}
        </button>
        <button
          type="button"
          class="secondary"
          disabled={!tasks.data?.nextCursor}
          onClick={() => tasks.data?.nextCursor && setCursors([...cursors, tasks.data.nextCursor])}
        >
          {t('console.tasks.older')}
        </button>
      </div>
    </section>
  );
}
