export * from './wire-values';
export * from './accounts.contracts';
export * from './billing.contracts';
export * from './media.contracts';
export * from './service-owners';
