import { Injectable } from '@nestjs/common';
import { servicePrisma, serviceSchema } from '@gen/persistence';
import { join } from 'node:path';
import { PrismaClient } from '../generated/prisma/client';

export const ACCOUNTS_SCHEMA = serviceSchema('accounts', join(__dirname, '..', '..'));

/** The accounts service's Prisma client; its migrations run when the module starts. */
@Injectable()
export class AccountsPrisma extends servicePrisma(PrismaClient, ACCOUNTS_SCHEMA) {}
