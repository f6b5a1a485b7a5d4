export * from './event-bus';
export * from './in-process-event-bus';
export * from './kafka-event-bus';
export * from './outbox';
export * from './outbox-signal';
export * from './outbox-wake-up';
export * from './typed-events';
