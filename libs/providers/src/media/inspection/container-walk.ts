/**
 * What walking a file's structure from its first byte says: the container it is, what the container itself
 * records (type, picture size, duration, frame rate) and where it ends; or that it is damaged (a part runs past
 * the end or is malformed). What follows `end` is not judged here: each caller decides what bytes after the
 * container's end mean (see `inspectMedia` of @gen/media and `probeMedia`).
 */
export type ContainerWalk = WellFormed | { readonly ok: false };

export interface WellFormed {
  readonly ok: true;
  readonly facts: ContainerFacts;
  /** The offset just after the container's last byte (the length when nothing follows it). */
  readonly end: number;
  /**
   * The format has no end marker (MPEG audio frames, ISO-BMFF boxes): bytes after `end` are bytes that could
   * not be read as a frame or a box, rather than data appended after a marked end.
   */
  readonly unmarkedEnd?: true;
  /** A video container without a video or audio track that lasts (nothing to play). */
  readonly noTrack?: true;
  /** A header whose fields contradict each other or what its encoding allows. */
  readonly headerFault?: HeaderFault;
  /** MPEG audio whose frames change sample rate or layer (at `end`, which is then not the file's end). */
  readonly mixedFrames?: true;
  /** An MP4/MOV whose movie header has a timescale of 0 (no duration can be measured). */
  readonly zeroTimescale?: true;
}

/** What a container records about its contents, read from its headers. */
export interface ContainerFacts {
  readonly mime: string;
  readonly width?: number;
  readonly height?: number;
  readonly durationSeconds?: number;
  /** Video frames a second, where the container states it (AVI). */
  readonly fps?: number;
}

/** A header field that cannot be right: its name as the format's description writes it. */
export interface HeaderFault {
  readonly field: string;
  readonly value: number;
  /** What would be consistent, in numbers and field names only (no words: it is shown in every language). */
  readonly expected: string;
}

export const DAMAGED: ContainerWalk = { ok: false };

/** Both sides positive, or undefined: a zero-sized picture is not a picture. */
export const sized = (width: number, height: number): { width: number; height: number } | undefined =>
  width > 0 && height > 0 ? { width, height } : undefined;
