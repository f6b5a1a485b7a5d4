import { Injectable } from '@nestjs/common';
import { servicePrisma } from '@gen/persistence';
import { join } from 'node:path';
import { PrismaClient } from '../generated/prisma/client';

export const WEBHOOKS_SCHEMA = 'webhooks';
export const WEBHOOKS_MIGRATIONS = join(__dirname, '..', '..', 'prisma', 'migrations');

/** The webhooks service's Prisma client; its migrations run when the module starts. */
@Injectable()
export class WebhooksPrisma extends servicePrisma(PrismaClient, {
  schema: WEBHOOKS_SCHEMA,
  directory: WEBHOOKS_MIGRATIONS,
}) {}
