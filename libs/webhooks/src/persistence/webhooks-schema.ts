import { Injectable } from '@nestjs/common';
import { serviceMigrations, serviceSchema } from '@gen/persistence';
import { join } from 'node:path';

export const WEBHOOKS_SCHEMA = serviceSchema('webhooks', join(__dirname, '..', '..'));

/** The webhooks schema is queried in SQL through DATABASE; its migrations run when the module starts. */
@Injectable()
export class WebhooksMigrations extends serviceMigrations(WEBHOOKS_SCHEMA) {}
