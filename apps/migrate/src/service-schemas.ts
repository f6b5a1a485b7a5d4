import { ACCOUNTS_SCHEMA } from '@gen/accounts';
import { BILLING_SCHEMA } from '@gen/billing';
import { ASSETS_SCHEMA, MEDIA_SCHEMA } from '@gen/media';
import type { ServiceSchema } from '@gen/persistence';
import { RUNNER_SCHEMA } from '@gen/runner';
import { TASKS_SCHEMA } from '@gen/tasks';
import { WEBHOOKS_SCHEMA } from '@gen/webhooks';

/**
 * Every schema of the deployment's database with its migrations folder, as each domain library declares it.
 * The schemas are independent (no statement of one names another), so the order is only the log's.
 * A test checks that every migrations folder of the libraries is here.
 */
export const SERVICE_SCHEMAS: readonly ServiceSchema[] = [
  ACCOUNTS_SCHEMA,
  BILLING_SCHEMA,
  TASKS_SCHEMA,
  RUNNER_SCHEMA,
  WEBHOOKS_SCHEMA,
  MEDIA_SCHEMA,
  ASSETS_SCHEMA,
];
