import { Injectable } from '@nestjs/common';
import { serviceMigrations, serviceSchema } from '@gen/persistence';
import { join } from 'node:path';

export const TASKS_SCHEMA = serviceSchema('tasks', join(__dirname, '..', '..'));

/** The tasks schema is queried in SQL through DATABASE; its migrations run when the module starts. */
@Injectable()
export class TasksMigrations extends serviceMigrations(TASKS_SCHEMA) {}
