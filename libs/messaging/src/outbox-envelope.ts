import type { EventEnvelope } from '@gen/contracts';
import { activeTraceparent } from '@gen/observability';

/**
 * An event as its outbox row stores it (the `envelope` JSON): with tracing on, with the active trace context
 * (`traceparent`) unless it has one, so that the relay's publish, later and maybe in another process,
 * continues the trace of the change that wrote it. Every writer of an outbox builds its rows with it
 * (`outboxRows`; billing's hold events, built in SQL, add it there).
 */
export function outboxEnvelope(event: EventEnvelope): string {
  const traceparent = event.traceparent ? undefined : activeTraceparent();
  return JSON.stringify(traceparent ? { ...event, traceparent } : event);
}
