import { Module, type DynamicModule } from '@nestjs/common';
import { ENDPOINT_CONTROLLERS, ENDPOINT_PROVIDERS } from './endpoints';
import { CallbackDeliveryWorker } from './events/callback-delivery.worker';
import { AdminDeliveriesController } from './http/admin-deliveries.controller';
import { DeliveryRepository } from './persistence/delivery.repository';
import { WebhooksPrisma } from './persistence/webhooks-prisma';
import { DeliverCallbackUseCase } from './use-cases/deliver-callback.use-case';

export interface WebhooksModuleOptions {
  /** Queue and send deliveries in this process (the webhooks app; embedded mode). */
  readonly workers: boolean;
}

/**
 * Task callbacks: one signed delivery per terminal task with a `callBackUrl`, its attempts on the retry
 * schedule, and their records (admin API); and the account-level endpoints' management (console API). Needs ACCOUNT_DIRECTORY, OBJECT_STORAGE, EVENT_BUS, DATABASE,
 * CLOCK and APP_CONFIG from the composing app.
 */
@Module({})
export class WebhooksModule {
  static forRoot(options: WebhooksModuleOptions): DynamicModule {
    return {
      module: WebhooksModule,
      controllers: [AdminDeliveriesController, ...ENDPOINT_CONTROLLERS],
      providers: [
        WebhooksPrisma,
        DeliveryRepository,
        DeliverCallbackUseCase,
        ...ENDPOINT_PROVIDERS,
        ...(options.workers ? [CallbackDeliveryWorker] : []),
      ],
    };
  }
}
