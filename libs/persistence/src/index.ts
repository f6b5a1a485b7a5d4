export * from './database';
export * from './migrate';
export * from './service-schema';
export * from './row-values';
export * from './group-commit';
