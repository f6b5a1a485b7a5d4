export * from './database';
export * from './migrate';
export * from './service-prisma';
