export * from './object-storage';
export * from './s3-object-storage';
export * from './local-object-storage';
export * from './local-object-routes';
