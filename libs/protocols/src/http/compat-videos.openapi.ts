import { BusinessCode } from '@gen/contracts';
import {
  COMMON_EXAMPLES,
  compatErrorResponses,
  edgeRefusal,
  refused,
  type ErrorExample,
} from './compat-errors.openapi';
import {
  IDEMPOTENCY_KEY,
  RATE,
  ref,
  REQUEST_ID,
  SECURITY,
  string,
  TASK_ID,
  unsupported,
} from './compat-operation.openapi';
import { VideoRequest } from './compat-requests.openapi';

/** `/v1/videos`, `/v1/videos/{id}` and `/v1/videos/{id}/content`: OpenAI's videos API over video tasks. */

const BAD_URL = edgeRefusal(
  'A path that does not decode',
  BusinessCode.InvalidRequest,
  'request.invalid_url',
);

const videoErrors = (examples: Readonly<Record<number, readonly ErrorExample[]>>) =>
  compatErrorResponses('openai', examples, {
    404: 'Not a video task of this key (unknown, another key’s or another account’s, not a video), or no content yet.',
  });

export const videoPaths: Record<string, Record<string, unknown>> = {
  '/v1/videos': {
    post: {
      tags: ['compatibility'],
      summary: 'Create a video task (OpenAI’s videos API): a Video whose `id` is the task id.',
      description:
        'The shapes are OpenAI’s (the specification leaves them open). The task is a normal task of the video ' +
        'model: the same validation, price, hold and Idempotency-Key as createTask; read it here, with ' +
        'recordInfo or in the task list.',
      security: SECURITY,
      parameters: [{ ...IDEMPOTENCY_KEY, description: 'As createTask’s Idempotency-Key.' }],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: VideoRequest },
          'multipart/form-data': {
            schema: VideoRequest,
            description: 'Text fields only (as OpenAI’s SDK sends them); a file part is 400 by its name.',
          },
        },
      },
      responses: {
        '200': {
          description: 'The task as a Video.',
          headers: { ...REQUEST_ID, ...TASK_ID, ...RATE },
          content: { 'application/json': { schema: ref('Video') } },
        },
        ...videoErrors({
          400: [
            refused(
              'Not a video model',
              400,
              'invalid_request',
              'compat.not_video_model',
              { model: 'local/sketch' },
              'model',
            ),
            unsupported('input_reference'),
            ...(COMMON_EXAMPLES[400] ?? []),
          ],
          ...pick([401, 402, 409, 413, 429, 500, 503]),
        }),
      },
    },
  },
  '/v1/videos/{id}': {
    parameters: [
      { name: 'id', in: 'path', required: true, description: 'The video (task) id.', schema: string() },
    ],
    get: {
      tags: ['compatibility'],
      summary: 'A video task of this key, as a Video: queued, in_progress, completed or failed.',
      security: SECURITY,
      responses: {
        '200': {
          description: 'The Video.',
          headers: { ...REQUEST_ID, ...RATE },
          content: { 'application/json': { schema: ref('Video') } },
        },
        ...videoErrors({
          ...pick([401, 429, 500, 503]),
          400: [BAD_URL],
          404: [edgeRefusal('Not a video task of this key', BusinessCode.NotFound, 'task.not_found')],
        }),
      },
    },
  },
  '/v1/videos/{id}/content': {
    parameters: [
      { name: 'id', in: 'path', required: true, description: 'The video (task) id.', schema: string() },
    ],
    get: {
      tags: ['compatibility'],
      summary: 'The video file: a redirect to its short-lived signed URL once completed.',
      security: SECURITY,
      responses: {
        '302': {
          description: 'The file is at Location (a signed URL that expires).',
          headers: { ...REQUEST_ID, Location: { schema: string(), description: 'The signed URL.' } },
        },
        ...videoErrors({
          ...pick([401, 429, 500, 503]),
          400: [BAD_URL],
          404: [
            refused('No content yet', 404, 'not_found', 'compat.video_not_ready', {
              id: 'job_01JZ0000000000000000000000',
              status: 'in_progress',
            }),
            edgeRefusal('Not a video task of this key', BusinessCode.NotFound, 'task.not_found'),
          ],
        }),
      },
    },
  },
};

/** The common examples of `statuses`. */
function pick(statuses: readonly number[]): Record<number, readonly ErrorExample[]> {
  return Object.fromEntries(statuses.map((status) => [status, COMMON_EXAMPLES[status] ?? []]));
}
