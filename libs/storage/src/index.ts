export * from './object-storage';
export * from './s3-object-storage';
