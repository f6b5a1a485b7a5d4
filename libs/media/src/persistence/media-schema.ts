import { Injectable } from '@nestjs/common';
import { serviceMigrations, serviceSchema } from '@gen/persistence';
import { join } from 'node:path';

export const MEDIA_SCHEMA = serviceSchema('media', join(__dirname, '..', '..'));

/** The media schema is queried in SQL through DATABASE; its migrations run when the module starts. */
@Injectable()
export class MediaMigrations extends serviceMigrations(MEDIA_SCHEMA) {}
