export * from './wire-values';
export * from './accounts.contracts';
export * from './billing.contracts';
export * from './media.contracts';
export * from './service-owners';
export * from './http-forward.contracts';
export * from './catalog.contracts';
export * from './tasks.contracts';
