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
  | { readonly ok: false; readonly problem: ContainerProblem };

/** `damaged`: a part runs past the end or is malformed; `trailing_data`: bytes follow the container's end. */
export type ContainerProblem = 'damaged' | 'trailing_data';

export const DAMAGED: ContainerCheck = { ok: false, problem: 'damaged' };
export const TRAILING: ContainerCheck = { ok: false, problem: 'trailing_data' };
export const WELL_FORMED: ContainerCheck = { ok: true };

/** The verdict when a walk ended at `end` of `length` bytes. */
export const endedAt = (end: number, length: number): ContainerCheck =>
  end === length ? WELL_FORMED : end < length ? TRAILING : DAMAGED;
