import { Injectable } from '@nestjs/common';
import { servicePrisma } from '@gen/persistence';
import { join } from 'node:path';
import { PrismaClient } from '../generated/prisma/client';

export const BILLING_SCHEMA = 'billing';
export const BILLING_MIGRATIONS = join(__dirname, '..', '..', 'prisma', 'migrations');

/** The billing service's Prisma client; its migrations run when the module starts. */
@Injectable()
export class BillingPrisma extends servicePrisma(PrismaClient, {
  schema: BILLING_SCHEMA,
  directory: BILLING_MIGRATIONS,
}) {}
