export { BillingModule, type BillingModuleOptions } from './billing.module';
export { type BillingOptions } from './domain/billing-options';
export { billingOpenApi } from './http/billing.openapi';
export { BILLING_SCHEMA } from './persistence/billing-prisma';
