/**
 * What the structure of a file says once walked from its first byte to its last: the file is exactly one
 * well-formed container of its type (no truncated part, nothing after its end), with what the container
 * itself records (a video's duration and picture size).
 */
export type ContainerCheck =
  | {
      readonly ok: true;
      readonly durationSeconds?: number;
      readonly width?: number;
      readonly height?: number;
    }
  | {
      readonly ok: false;
      readonly problem: ContainerProblem;
      /** `inconsistent_header`: the field at fault, the value found and the value expected. */
      readonly header?: HeaderFault;
    };

/**
 * `damaged`: a part runs past the end or is malformed; `trailing_data`: bytes follow the container's end;
 * `no_track`: a video container with no video or audio track that lasts (nothing to play);
 * `inconsistent_header`: a header whose fields contradict each other or what its encoding allows (a WAV with 0
 * channels, or a byte rate that is not sample rate x block size), so the data cannot be decoded as it claims.
 */
export type ContainerProblem = 'damaged' | 'trailing_data' | 'no_track' | 'inconsistent_header';

/** A header field that cannot be right: its name as the format's description writes it. */
export interface HeaderFault {
  readonly field: string;
  readonly value: number;
  /** What would be consistent, in numbers and field names only (no words: it is shown in every language). */
  readonly expected: string;
}

export const NO_TRACK: ContainerCheck = { ok: false, problem: 'no_track' };
export const inconsistentHeader = (field: string, value: number, expected: string): ContainerCheck => ({
  ok: false,
  problem: 'inconsistent_header',
  header: { field, value, expected },
});

export const DAMAGED: ContainerCheck = { ok: false, problem: 'damaged' };
export const TRAILING: ContainerCheck = { ok: false, problem: 'trailing_data' };
export const WELL_FORMED: ContainerCheck = { ok: true };

/** The verdict when a walk ended at `end` of `length` bytes. */
export const endedAt = (end: number, length: number): ContainerCheck =>
  end === length ? WELL_FORMED : end < length ? TRAILING : DAMAGED;
