export * from './databases';
export * from './running-app';
export * from './pglite-template';
export * from './openapi-check';
export * from './prisma-schema-engine';
export * from './fixtures';
export * from './fixture-files';
export * from './tls';
