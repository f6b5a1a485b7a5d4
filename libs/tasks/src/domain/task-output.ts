import { BusinessCode, isTaskOutputKey, type ExecutionAsset } from '@gen/contracts';
import { DomainError } from '@gen/core';
import type { TaskRow } from '../persistence/task-row';
import { isPurgedAt, retainedUntil } from './task-retention';

/** How long a download ticket's URL is valid (never past the task's retention). */
export const DOWNLOAD_URL_SECONDS = 15 * 60;

/** The output a download ticket signs, and for how many seconds. */
export interface DownloadableOutput {
  readonly asset: ExecutionAsset;
  readonly expiresInSeconds: number;
}

/**
 * Which output of `task` a download ticket names (spec: Media, download-url): the one whose storage key is
 * `key`, or the first output when `key` is empty or absent. Refusals, in this order:
 * - queued or running: 409 (its outputs do not exist yet: wait for it to finish);
 * - failed, expired or canceled: 409 (it has no outputs; never will);
 * - purged, or past its retention: 404 (the outputs are gone);
 * - no output with that key (a text task has none): 404;
 * - an output that could not be stored (`unavailable`): 404; one not ready (`pending`): 409 (media pending).
 * Only keys under the task's own output prefix are ever signed.
 */
export function downloadableOutput(task: TaskRow, key: string | undefined, now: Date): DownloadableOutput {
  if (task.state === 'queued' || task.state === 'running') {
    throw new DomainError(BusinessCode.Conflict, 'download.not_finished', { state: task.state });
  }
  if (task.state !== 'succeeded') {
    throw new DomainError(BusinessCode.Conflict, 'download.not_succeeded', { state: task.state });
  }
  if (isPurgedAt(task, now)) throw new DomainError(BusinessCode.NotFound, 'download.outputs_gone');
  const outputs = (task.assets ?? []).filter((asset) => isTaskOutputKey(task.id, asset.key));
  if (outputs.length === 0) throw new DomainError(BusinessCode.NotFound, 'download.no_outputs');
  const asset = key ? outputs.find((output) => output.key === key) : outputs[0];
  if (!asset) throw new DomainError(BusinessCode.NotFound, 'download.no_such_output');
  if (asset.status === 'unavailable')
    throw new DomainError(BusinessCode.NotFound, 'download.output_unavailable');
  if (asset.status === 'pending') throw new DomainError(BusinessCode.Conflict, 'download.output_pending');
  const until = retainedUntil(task);
  const secondsLeft = until ? Math.floor((until.getTime() - now.getTime()) / 1000) : DOWNLOAD_URL_SECONDS;
  return { asset, expiresInSeconds: Math.max(1, Math.min(DOWNLOAD_URL_SECONDS, secondsLeft)) };
}
