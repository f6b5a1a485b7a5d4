import { Module, type DynamicModule } from '@nestjs/common';
import { WebhookSender } from './delivery/webhook-sender';
import { ENDPOINT_CONTROLLERS, ENDPOINT_PROVIDERS } from './endpoints';
import { WebhookDeliveryWorker } from './events/webhook-delivery.worker';
import { AdminDeliveriesController } from './http/admin-deliveries.controller';
import { DeliveryRepository } from './persistence/delivery.repository';
import { MessageRepository } from './persistence/message.repository';
import { WebhooksMigrations } from './persistence/webhooks-schema';
import { DeliverCallbackUseCase } from './use-cases/deliver-callback.use-case';
import { DeliverEndpointMessageUseCase } from './use-cases/deliver-endpoint-message.use-case';
import { ListTaskWebhooksUseCase } from './use-cases/list-task-webhooks.use-case';
import { QueueEndpointMessagesUseCase } from './use-cases/queue-endpoint-messages.use-case';
import { RedeliverWebhookUseCase } from './use-cases/redeliver-webhook.use-case';

export interface WebhooksModuleOptions {
  /** Queue and send deliveries in this process (the webhooks app; embedded mode). */
  readonly workers: boolean;
  /**
   * Serve the endpoint management (`/console/v1/webhook-endpoints`, `/console/v1/webhook-events`) and the
   * deliveries' administration (`/admin/v1/webhook-deliveries`): the gateway; embedded mode.
   */
  readonly http: boolean;
}

/**
 * Webhooks: one signed callback per terminal task with a `callBackUrl`, and one Standard Webhooks message per
 * matching account-level endpoint, each attempted on the retry schedule with every attempt recorded (admin
 * API); and the endpoints' management (console API). Needs ACCOUNT_DIRECTORY, OBJECT_STORAGE, EVENT_BUS,
 * DATABASE, CLOCK and APP_CONFIG from the composing app.
 */
@Module({})
export class WebhooksModule {
  static forRoot(options: WebhooksModuleOptions): DynamicModule {
    return {
      module: WebhooksModule,
      controllers: options.http ? [AdminDeliveriesController, ...ENDPOINT_CONTROLLERS] : [],
      providers: [
        WebhooksMigrations,
        DeliveryRepository,
        MessageRepository,
        WebhookSender,
        DeliverCallbackUseCase,
        QueueEndpointMessagesUseCase,
        DeliverEndpointMessageUseCase,
        ListTaskWebhooksUseCase,
        RedeliverWebhookUseCase,
        ...ENDPOINT_PROVIDERS,
        ...(options.workers ? [WebhookDeliveryWorker] : []),
      ],
    };
  }
}
