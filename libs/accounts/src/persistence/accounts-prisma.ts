import { Injectable } from '@nestjs/common';
import { servicePrisma } from '@gen/persistence';
import { join } from 'node:path';
import { PrismaClient } from '../generated/prisma/client';

export const ACCOUNTS_SCHEMA = 'accounts';
export const ACCOUNTS_MIGRATIONS = join(__dirname, '..', '..', 'prisma', 'migrations');

/** The accounts service's Prisma client; its migrations run when the module starts. */
@Injectable()
export class AccountsPrisma extends servicePrisma(PrismaClient, {
  schema: ACCOUNTS_SCHEMA,
  directory: ACCOUNTS_MIGRATIONS,
}) {}
