import { Injectable } from '@nestjs/common';
import { serviceMigrations, type ServiceSchema } from '@gen/persistence';
import { join } from 'node:path';

/**
 * The asset library's schema. It has its own migrations folder (`libs/media/prisma/assets/migrations`), apart
 * from the files' schema of the same library, so that each keeps its own history.
 */
export const ASSETS_SCHEMA: ServiceSchema = {
  schema: 'assets',
  directory: join(__dirname, '..', '..', '..', 'prisma', 'assets', 'migrations'),
};

/** The assets schema is queried in SQL through DATABASE; its migrations run when the module starts. */
@Injectable()
export class AssetsMigrations extends serviceMigrations(ASSETS_SCHEMA) {}
