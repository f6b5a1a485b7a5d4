export * from './canonical/text-input';
