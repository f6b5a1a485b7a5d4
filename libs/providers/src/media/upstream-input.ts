import type { MediaTask } from '@gen/contracts';

/**
 * The input an upstream is sent: the task's input with each media field the runner read (`task.media`)
 * replaced by a `data:` URL of its bytes. An upstream can read neither a `service://` URI nor, often, the
 * client's URL (and must not be sent on to fetch it); Replicate and Cog take `data:` URLs for file inputs.
 */
export function upstreamInput(task: MediaTask): Readonly<Record<string, unknown>> {
  if (!task.media) return task.input;
  const input: Record<string, unknown> = { ...task.input };
  for (const [field, media] of Object.entries(task.media)) {
    input[field] = `data:${media.contentType};base64,${media.bytes.toString('base64')}`;
  }
  return input;
}
