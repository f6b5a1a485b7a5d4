/** What a generated file is, measured from its bytes (never taken from an upstream's claim). */
export interface MediaFacts {
  readonly mime: string;
  readonly width?: number;
  readonly height?: number;
  readonly durationSeconds?: number;
  /** Video frames a second, where the container states it (AVI). */
  readonly fps?: number;
}
