import { Injectable } from '@nestjs/common';
import { servicePrisma, serviceSchema } from '@gen/persistence';
import { join } from 'node:path';
import { PrismaClient } from '../generated/prisma/client';

export const BILLING_SCHEMA = serviceSchema('billing', join(__dirname, '..', '..'));

/** The billing service's Prisma client (funding sources); its migrations run when the module starts. */
@Injectable()
export class BillingPrisma extends servicePrisma(PrismaClient, BILLING_SCHEMA) {}
