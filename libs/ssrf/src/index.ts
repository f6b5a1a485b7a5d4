export * from './address-ranges';
export * from './private-cidr-allow-list';
export * from './host-resolver';
export * from './callback-url-check';
export * from './guarded-lookup';
export * from './guarded-client';
export * from './guarded-fetch';
