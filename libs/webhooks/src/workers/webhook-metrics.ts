import { Inject, Injectable, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { METRICS, cached, type Metrics, type Sample } from '@gen/observability';
import { DeliveryRepository } from '../persistence/delivery.repository';
import { MessageRepository } from '../persistence/message.repository';

/** How long one reading of the backlog serves scrapes. */
export const WEBHOOK_METRICS_CACHE_MS = 1000;

/**
 * The webhook backlog, read on scrape where deliveries are sent (the webhooks app; embedded mode), per kind
 * (`callback`: task callbacks; `endpoint_message`: messages to account-level endpoints):
 * `webhook_deliveries_pending{kind}`, still to send, and `webhook_deliveries_failing{kind}`, those of them
 * whose last attempt failed and that wait for a retry.
 */
@Injectable()
export class WebhookMetrics implements OnApplicationBootstrap {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly messages: MessageRepository,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics | null = null,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.metrics) return;
    const read = cached(WEBHOOK_METRICS_CACHE_MS, async () => {
      const [callback, message] = await Promise.all([this.deliveries.backlog(), this.messages.backlog()]);
      return { callback, endpoint_message: message };
    });
    const samples = (pick: 'pending' | 'failing') => async (): Promise<Sample[]> => {
      const backlog = await read();
      return [
        { labels: { kind: 'callback' }, value: backlog.callback[pick] },
        { labels: { kind: 'endpoint_message' }, value: backlog.endpoint_message[pick] },
      ];
    };
    this.metrics
      .gauge(
        'webhook_deliveries_pending',
        'Webhook deliveries still to send (not delivered, not failed for good, not dropped), by kind.',
        ['kind'],
      )
      .source(samples('pending'));
    this.metrics
      .gauge(
        'webhook_deliveries_failing',
        'Pending webhook deliveries whose last attempt failed, waiting for a retry, by kind.',
        ['kind'],
      )
      .source(samples('failing'));
  }
}
