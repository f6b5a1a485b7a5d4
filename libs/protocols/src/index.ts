export * from './canonical/text-input';
export * from './responses';
export * from './messages';
