import { Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { TASK_EVENT_LISTENERS } from '@gen/contracts';
import { endpointUrlPolicyProvider } from './domain/endpoint-url.policy';
import { WebhookDeliveryWorker } from './events/webhook-delivery.worker';
import { AdminDeliveriesController } from './http/admin-deliveries.controller';
import { ConsoleDeliveriesController } from './http/console-deliveries.controller';
import { EndpointsController } from './http/endpoints.controller';
import { WebhookSender } from './outbound/webhook-sender';
import { DeliveryRepository } from './persistence/delivery.repository';
import { EndpointDirectory } from './persistence/endpoint-directory';
import { EndpointRepository } from './persistence/endpoint.repository';
import { MessageRepository } from './persistence/message.repository';
import { WebhooksMigrations } from './persistence/webhooks-schema';
import { CreateEndpointUseCase } from './use-cases/create-endpoint.use-case';
import { DeliverCallbackUseCase } from './use-cases/deliver-callback.use-case';
import { DeliverEndpointMessageUseCase } from './use-cases/deliver-endpoint-message.use-case';
import { GetEndpointUseCase } from './use-cases/get-endpoint.use-case';
import { ListEndpointMessagesUseCase } from './use-cases/list-endpoint-messages.use-case';
import { ListEndpointsUseCase } from './use-cases/list-endpoints.use-case';
import { ListTaskWebhooksUseCase } from './use-cases/list-task-webhooks.use-case';
import { QueueEndpointMessagesUseCase } from './use-cases/queue-endpoint-messages.use-case';
import { RedeliverWebhookUseCase } from './use-cases/redeliver-webhook.use-case';
import { RotateEndpointSecretUseCase } from './use-cases/rotate-endpoint-secret.use-case';
import { UpdateEndpointUseCase } from './use-cases/update-endpoint.use-case';
import { WebhookMetrics } from './workers/webhook-metrics';

/**
 * Account-level webhook endpoints (management). The providers need DATABASE, CLOCK and APP_CONFIG, and the
 * module's WebhooksMigrations (migrations run before the first query).
 */
export const ENDPOINT_PROVIDERS: Provider[] = [
  EndpointRepository,
  endpointUrlPolicyProvider,
  CreateEndpointUseCase,
  ListEndpointsUseCase,
  GetEndpointUseCase,
  UpdateEndpointUseCase,
  RotateEndpointSecretUseCase,
];

export const ENDPOINT_CONTROLLERS: Type<unknown>[] = [EndpointsController];

export interface WebhooksModuleOptions {
  /** Queue and send deliveries in this process (the webhooks app; embedded mode). */
  readonly workers: boolean;
  /**
   * Serve the endpoint management (`/console/v1/webhook-endpoints`, `/console/v1/webhook-events`) and the
   * deliveries' administration (`/admin/v1/webhook-deliveries`) and the console's view of them (a task's
   * webhooks, an endpoint's messages, redelivery): the gateway; embedded mode.
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
      controllers: options.http
        ? [AdminDeliveriesController, ConsoleDeliveriesController, ...ENDPOINT_CONTROLLERS]
        : [],
      providers: [
        WebhooksMigrations,
        DeliveryRepository,
        MessageRepository,
        WebhookSender,
        DeliverCallbackUseCase,
        DeliverEndpointMessageUseCase,
        ListTaskWebhooksUseCase,
        RedeliverWebhookUseCase,
        ListEndpointMessagesUseCase,
        ...ENDPOINT_PROVIDERS,
        // Queueing needs the endpoint directory, which listens for endpoint changes on a connection of its own.
        // It tells the tasks domain of the process whether an account's terminal events have listeners.
        ...(options.workers
          ? [
              EndpointDirectory,
              { provide: TASK_EVENT_LISTENERS, useExisting: EndpointDirectory },
              QueueEndpointMessagesUseCase,
              WebhookDeliveryWorker,
              WebhookMetrics,
            ]
          : []),
      ],
      exports: options.workers ? [TASK_EVENT_LISTENERS] : [],
    };
  }
}
