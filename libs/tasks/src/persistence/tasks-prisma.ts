import { Injectable } from '@nestjs/common';
import { servicePrisma } from '@gen/persistence';
import { join } from 'node:path';
import { PrismaClient } from '../generated/prisma/client';

export const TASKS_SCHEMA = 'tasks';
export const TASKS_MIGRATIONS = join(__dirname, '..', '..', 'prisma', 'migrations');

/** The tasks service's Prisma client; its migrations run when the module starts. */
@Injectable()
export class TasksPrisma extends servicePrisma(PrismaClient, {
  schema: TASKS_SCHEMA,
  directory: TASKS_MIGRATIONS,
}) {}
