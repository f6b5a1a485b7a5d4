export { BillingModule, type BillingModuleOptions } from './billing.module';
export { BILLING_OPTIONS, DEFAULT_BILLING_OPTIONS, type BillingOptions } from './billing.options';
export { billingOpenApi } from './http/billing.openapi';
