export { WebhooksModule, type WebhooksModuleOptions } from './webhooks.module';
export { webhooksOpenApi } from './http/webhooks.openapi';
