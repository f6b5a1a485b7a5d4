export * from './canonical/text-input';
export * from './chat-completions';
export * from './field-handling';
export * from './responses';
export * from './messages';
export * from './generate-content';
export * from './http/compat.module';
export { compatOpenApi } from './http/compat.openapi';
export * from './videos';
