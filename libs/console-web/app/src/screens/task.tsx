import { useQuery } from '@tanstack/react-query';
import { api, ApiError, type Asset, type Delivery, type Message, type Task } from '../api';
import { formatTime, useI18n } from '../i18n';
import { Link } from '../router';
import { ErrorNote, Loading, Money } from '../ui';
import { Attempts, RedeliverButton } from './deliveries';

export function TaskScreen(props: { taskId: string }) {
  const { t, language } = useI18n();
  const task = useQuery({
    queryKey: ['task', props.taskId],
    queryFn: () => api<Task>('GET', `/tasks/${encodeURIComponent(props.taskId)}`),
    // Until it is finished, the record changes: read it again.
    refetchInterval: (q) => (q.state.data && !q.state.data.completedAt ? 2000 : false),
  });
  return (
    <section aria-labelledby="task-heading">
      <p>
        <Link href="/tasks">{t('console.tasks.back')}</Link>
      </p>
      <h1 id="task-heading">{t('console.task.heading', { taskId: props.taskId })}</h1>
      {task.isPending ? (
        <Loading />
      ) : task.error ? (
        <ErrorNote error={task.error} />
      ) : (
        <>
          <dl class="facts">
            <dt>{t('console.tasks.model')}</dt>
            <dd>{task.data.model}</dd>
            <dt>{t('console.tasks.state')}</dt>
            <dd>
              <span class={`badge state-${task.data.state}`} data-testid="task-state">
                {task.data.state}
              </span>
            </dd>
            {task.data.keyId && (
              <>
                <dt>{t('console.tasks.key')}</dt>
                <dd>
                  <code>{task.data.keyId}</code>
                </dd>
              </>
            )}
            <dt>{t('console.tasks.created')}</dt>
            <dd>{formatTime(language, task.data.createdAt)}</dd>
            <dt>{t('console.task.completed')}</dt>
            <dd>{formatTime(language, task.data.completedAt) || '—'}</dd>
            <dt>{t('console.task.estimated')}</dt>
            <dd>
              <Money amount={task.data.estimatedCost} />
            </dd>
            <dt>{t('console.tasks.cost')}</dt>
            <dd>
              <Money amount={task.data.cost} />
            </dd>
            <dt>{t('console.task.settled')}</dt>
            <dd>{task.data.settled ? t('console.task.yes') : t('console.task.no')}</dd>
            {task.data.errorMessage && (
              <>
                <dt>{t('console.task.error')}</dt>
                <dd>
                  {task.data.errorMessage} (<code>{task.data.errorCode}</code>)
                </dd>
              </>
            )}
          </dl>
          <h2>{t('console.task.outputs')}</h2>
          {task.data.output && (task.data.output.text !== undefined || task.data.output.message) && (
            <TextAnswer output={task.data.output} />
          )}
          {(task.data.output?.assets.length ?? 0) === 0 ? (
            task.data.output?.text === undefined && <p>{t('console.task.no_outputs')}</p>
          ) : (
            <ul class="outputs">
              {task.data.output!.assets.map((asset, index) => (
                <li key={asset.key}>
                  <Preview asset={asset} n={index + 1} />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <TaskWebhooks taskId={props.taskId} />
    </section>
  );
}

/**
 * A text task's answer: its text (when there is any), the reasoning the model showed, its tool calls (name and
 * arguments), why it ended and the tokens charged.
 */
function TextAnswer(props: { output: NonNullable<Task['output']> }) {
  const { t } = useI18n();
  const { output } = props;
  const calls = output.message?.tool_calls ?? [];
  const reasoning = output.message?.reasoning_content;
  return (
    <section class="text-answer" aria-label={t('console.task.text')}>
      <h3>{t('console.task.text')}</h3>
      {output.text ? (
        <pre class="text-output" data-testid="answer-text">
          {output.text}
        </pre>
      ) : (
        <p class="muted">{t('console.task.no_text')}</p>
      )}
      {reasoning && (
        <details>
          <summary>{t('console.task.reasoning')}</summary>
          <pre class="text-output">{reasoning}</pre>
        </details>
      )}
      {calls.length > 0 && (
        <>
          <h3>{t('console.task.tool_calls')}</h3>
          <ol class="tool-calls" data-testid="tool-calls">
            {calls.map((call) => (
              <li key={call.id}>
                <code>{call.function.name}</code>
                <pre class="text-output">{prettyJson(call.function.arguments)}</pre>
              </li>
            ))}
          </ol>
        </>
      )}
      <dl class="facts">
        {output.finishReason && (
          <>
            <dt>{t('console.task.finish_reason')}</dt>
            <dd data-testid="finish-reason">
              <code>{output.finishReason}</code>
            </dd>
          </>
        )}
        {output.usage && (
          <>
            <dt>{t('console.task.usage')}</dt>
            <dd data-testid="usage">
              {t('console.task.tokens', {
                prompt: output.usage.prompt_tokens,
                cached: output.usage.cached_tokens,
                completion: output.usage.completion_tokens,
                reasoning: output.usage.reasoning_tokens,
              })}
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}

/** Tool arguments as the model wrote them, indented when they are JSON. */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function Preview(props: { asset: Asset; n: number }) {
  const { t } = useI18n();
  const { asset } = props;
  if (!asset.url) return <code>{asset.key}</code>;
  const kind = asset.mime.split('/')[0];
  return (
    <figure>
      {kind === 'image' && (
        <img
          src={asset.url}
          alt={t('console.task.image_alt', { n: props.n })}
          width={asset.width}
          height={asset.height}
          loading="lazy"
        />
      )}
      {kind === 'audio' && <audio controls preload="metadata" src={asset.url} />}
      {kind === 'video' && <video controls preload="metadata" src={asset.url} width={asset.width} />}
      <figcaption>
        <code>{asset.mime}</code>{' '}
        <a href={asset.url} target="_blank" rel="noopener noreferrer">
          {t('console.task.download')}
        </a>
      </figcaption>
    </figure>
  );
}

function TaskWebhooks(props: { taskId: string }) {
  const { t } = useI18n();
  const key = ['task-webhooks', props.taskId];
  const webhooks = useQuery({
    queryKey: key,
    queryFn: () =>
      api<{ items: Delivery[]; messages: Message[] }>(
        'GET',
        `/webhook-deliveries?taskId=${encodeURIComponent(props.taskId)}`,
      ).catch((error: unknown) => {
        // None for this task (yet) is a 404: shown as "none".
        if (error instanceof ApiError && error.status === 404) return { items: [], messages: [] };
        throw error;
      }),
    refetchInterval: 3000,
  });
  return (
    <section aria-labelledby="task-webhooks-heading">
      <h2 id="task-webhooks-heading">{t('console.task.webhooks')}</h2>
      {webhooks.isPending ? (
        <Loading />
      ) : webhooks.error ? (
        <ErrorNote error={webhooks.error} />
      ) : webhooks.data.items.length + webhooks.data.messages.length === 0 ? (
        <p>{t('console.task.no_webhooks')}</p>
      ) : (
        <>
          {webhooks.data.items.map((delivery) => (
            <article class="card" key={delivery.deliveryId} data-testid="delivery">
              <h3>
                {t('console.webhooks.delivery')} <code>{delivery.deliveryId}</code>
              </h3>
              <p>
                {t('console.webhooks.url')}: <code>{delivery.url}</code> · {t('console.webhooks.state')}:{' '}
                <span class={`badge state-${delivery.state}`}>{delivery.state}</span>
              </p>
              <Attempts attempts={delivery.attemptLog} />
              <RedeliverButton id={delivery.deliveryId} refresh={key} />
            </article>
          ))}
          {webhooks.data.messages.map((message) => (
            <article class="card" key={message.messageId} data-testid="message">
              <h3>
                {t('console.webhooks.message')} <code>{message.messageId}</code>
              </h3>
              <p>
                {t('console.webhooks.event')}: <code>{message.eventType}</code> ·{' '}
                {t('console.webhooks.state')}:{' '}
                <span class={`badge state-${message.state}`}>{message.state}</span>
              </p>
              <Attempts attempts={message.attemptLog} />
              <RedeliverButton id={message.messageId} refresh={key} />
            </article>
          ))}
        </>
      )}
    </section>
  );
}
