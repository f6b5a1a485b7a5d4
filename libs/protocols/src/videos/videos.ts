import type { TaskView } from '@gen/contracts';
import { ProtocolError } from '../canonical/text-input';

/** The fields of OpenAI's `POST /v1/videos` that a video task can take (JSON bodies only). */
const ACCEPTED = new Set(['model', 'prompt', 'seconds', 'size']);

export interface MappedVideoRequest {
  readonly model: string;
  /** The task input: `prompt`, `seconds` as `duration_seconds`, `size` as `resolution` (validated by the model's schema). */
  readonly input: Record<string, unknown>;
}

/**
 * OpenAI's video creation request as a task of a video model (the spec leaves the shapes open: these are
 * OpenAI's, `POST /v1/videos`): the prompt, `seconds` ("4" or 4) as `duration_seconds` and `size` ("1280x720")
 * as `resolution`, which the model's inputSchema then accepts or refuses. Anything else (an `input_reference`
 * image, a remix) is 400 `unsupported_parameter`.
 */
export function mapVideoRequest(body: unknown): MappedVideoRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ProtocolError(400, 'invalid_request', 'request.body_required');
  }
  const fields = body as Record<string, unknown>;
  for (const name of Object.keys(fields)) {
    if (!ACCEPTED.has(name) && fields[name] !== null && fields[name] !== undefined) {
      throw new ProtocolError(
        400,
        'unsupported_parameter',
        'compat.unsupported_parameter',
        { param: name },
        name,
      );
    }
  }
  for (const name of ['model', 'prompt'] as const) {
    if (typeof fields[name] !== 'string' || fields[name] === '') {
      throw new ProtocolError(400, 'invalid_request', 'request.missing_field', { field: name }, name);
    }
  }
  const input: Record<string, unknown> = { prompt: fields['prompt'] };
  const seconds = fields['seconds'];
  if (seconds !== undefined && seconds !== null) {
    const value = typeof seconds === 'string' && /^\d{1,4}$/.test(seconds) ? Number(seconds) : seconds;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      throw new ProtocolError(
        400,
        'invalid_request',
        'request.invalid_field',
        { field: 'seconds' },
        'seconds',
      );
    }
    input['duration_seconds'] = value;
  }
  if (typeof fields['size'] === 'string') input['resolution'] = fields['size'];
  return { model: fields['model'] as string, input };
}

const STATUS: Readonly<Record<string, string>> = {
  queued: 'queued',
  running: 'in_progress',
  succeeded: 'completed',
  failed: 'failed',
  expired: 'failed',
  canceled: 'failed',
};

const seconds = (iso: string | undefined): number | null =>
  iso === undefined ? null : Math.floor(Date.parse(iso) / 1000);

/** The task as OpenAI's Video object: `id` is the task id (`job_...`), as X-Service-Task-Id. */
export function writeVideo(task: TaskView): Record<string, unknown> {
  const status = STATUS[task.state] ?? 'failed';
  const input = task.input ?? {};
  return {
    id: task.taskId,
    object: 'video',
    model: task.model,
    status,
    progress: status === 'completed' ? 100 : status === 'in_progress' ? 50 : 0,
    created_at: seconds(task.createdAt),
    completed_at: seconds(task.completedAt),
    expires_at: null,
    seconds: input['duration_seconds'] === undefined ? null : String(input['duration_seconds']),
    size: typeof input['resolution'] === 'string' ? input['resolution'] : null,
    error:
      status === 'failed'
        ? { code: task.errorCode ?? task.state, message: task.errorMessage ?? task.state }
        : null,
  };
}
