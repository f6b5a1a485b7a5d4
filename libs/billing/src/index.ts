export { BillingModule } from './billing.module';
export { type BillingOptions } from './billing.options';
export { billingOpenApi } from './http/billing.openapi';
