import type { ContainerFacts } from './inspection';

/** What a generated file is, measured from its bytes (never taken from an upstream's claim). */
export type MediaFacts = ContainerFacts;
