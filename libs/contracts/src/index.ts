export * from './error-codes';
export * from './id-prefixes';
export * from './auth.ports';
export * from './funds.ports';
export * from './events';
export * from './holds.ports';
export * from './task-events';
export * from './catalog.ports';
