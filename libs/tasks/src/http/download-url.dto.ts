import { Type, type Static } from '@sinclair/typebox';
import { TaskIdInput } from './task.dto';

const TASK = 'job_01JDZC4E6G8J0K2M4N6P8R0S2T';

/** The body of POST /api/v1/common/download-url. Unknown fields are 400. */
export const DownloadUrlBody = Type.Object(
  {
    taskId: TaskIdInput,
    key: Type.Optional(
      Type.String({
        maxLength: 1024,
        description:
          'The `key` of one asset in `output.assets` of the task record. Empty or absent: the first output.',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ taskId: TASK, key: `outputs/${TASK}/0.png` }],
  },
);
export type DownloadUrlBody = Static<typeof DownloadUrlBody>;

/** The data of a download ticket. */
export const DownloadUrlResult = Type.Object(
  {
    url: Type.String({
      description:
        'A signed GET URL of the output: fetched directly, without API credentials, until `expiresAt`.',
    }),
    expiresAt: Type.String({
      format: 'date-time',
      description: 'Fifteen minutes after the call, or the end of the task’s retention if that comes first.',
    }),
    key: Type.String({
      description: 'The storage key of the output signed (the first one when none was sent).',
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        url: `https://gen.example.com/objects/v1/outputs/${TASK}/0.png?X-Expires=1795859100&X-Signature=q4Jw0bV2h7pT9sXk1m3N5r7t9v1x3z5B7d9f1h3j5l7`,
        expiresAt: '2026-11-28T10:05:00.000Z',
        key: `outputs/${TASK}/0.png`,
      },
    ],
  },
);
export type DownloadUrlResult = Static<typeof DownloadUrlResult>;
