export { WebhooksModule, type WebhooksModuleOptions } from './webhooks.module';
export { webhooksOpenApi } from './http/webhooks.openapi';
export { endpointsOpenApi } from './http/endpoints.openapi';
export { DeliveryRepository } from './persistence/delivery.repository';
export { WEBHOOKS_SCHEMA } from './persistence/webhooks-schema';
