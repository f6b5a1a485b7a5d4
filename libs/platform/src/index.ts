export * from './platform.module';
export * from './lifecycle';
export * from './http-app';
export * from './nest-logger';
export * from './run-service';
export * from './infrastructure';
export * from './dependencies';
export * from './object-storage.providers';
