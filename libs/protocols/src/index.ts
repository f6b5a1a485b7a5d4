export * from './canonical/text-input';
export * from './generate-content';
