export * from './database';
export * from './migrate';
export * from './service-prisma';
export * from './row-values';
export * from './group-commit';
