export * from './databases';
export * from './running-app';
