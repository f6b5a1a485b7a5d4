import { Injectable } from '@nestjs/common';
import { serviceMigrations, serviceSchema } from '@gen/persistence';
import { join } from 'node:path';

export const RUNNER_SCHEMA = serviceSchema('runner', join(__dirname, '..', '..'));

/** The runner schema (its queue) is queried in SQL through DATABASE; its migrations run when the module starts. */
@Injectable()
export class RunnerMigrations extends serviceMigrations(RUNNER_SCHEMA) {}
