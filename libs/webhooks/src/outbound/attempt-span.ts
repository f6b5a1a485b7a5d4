import { SpanKind, SpanStatusCode, inSpan } from '@gen/observability';
import type { AttemptOutcome } from './attempt-outcome';

/** What an attempt span names: the delivery, its task and attempt number, and the trace it was queued in. */
export interface TracedDelivery {
  readonly id: string;
  readonly taskId: string;
  readonly attempts: number;
  readonly traceparent?: string;
}

/**
 * With tracing on, one attempt of a webhook delivery as an outgoing (client) span continuing the trace the
 * delivery was queued in (`traceparent`, stored with it), with its outcome; the receiver gets no trace header
 * (it is a third party). With tracing off, just runs `attempt`.
 */
export function inAttemptSpan<T extends AttemptOutcome | string>(
  name: 'webhook callback' | 'webhook endpoint message',
  delivery: TracedDelivery,
  attempt: () => Promise<T>,
): Promise<T> {
  return inSpan(
    name,
    {
      kind: SpanKind.CLIENT,
      // Its own trace, never the context the claim ran in.
      parent: delivery.traceparent ?? {},
      attributes: {
        'gen.task_id': delivery.taskId,
        'gen.webhook.delivery_id': delivery.id,
        'gen.webhook.attempt': delivery.attempts + 1,
      },
    },
    async (span) => {
      const outcome = await attempt();
      if (span && typeof outcome === 'string') span.setAttribute('gen.webhook.outcome', outcome);
      else if (span && typeof outcome === 'object') {
        span.setAttribute('gen.webhook.outcome', outcome.ok ? 'delivered' : outcome.reason);
        if (outcome.status !== undefined) span.setAttribute('http.response.status_code', outcome.status);
        if (!outcome.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.reason });
      }
      return outcome;
    },
  );
}
