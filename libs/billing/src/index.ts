export { BillingModule } from './billing.module';
export { billingOpenApi } from './http/billing.openapi';
